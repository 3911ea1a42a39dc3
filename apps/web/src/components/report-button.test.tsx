import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { REPORT_MSG, REPORT_REASON_WORDS, REPORT_REASONS } from '@spotter/shared';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { ReportButton } from './report-button';

const renderButton = () => renderWithProviders(<ReportButton kind="review" id="r1" subject="review by Sara A." />);
const reportButton = () => screen.getByRole('button', { name: 'Report review by Sara A.' });

async function openDialog(user: ReturnType<typeof renderButton>['user']) {
  await user.click(reportButton());
  return screen.findByRole('dialog', { name: 'Report this review' });
}

describe('ReportButton', () => {
  it('opens a dialog with a heading, the reasons and a note; Escape closes it and focus returns to the button', async () => {
    const fetchMock = stubApi();
    const { user } = renderButton();
    expect(reportButton()).toHaveAttribute('aria-haspopup', 'dialog');

    const dialog = await openDialog(user);
    expect(within(dialog).getByRole('heading', { name: 'Report this review' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('An operator will look at it, and we will tell you what we decided.');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    const reasons = within(dialog).getByRole('group', { name: 'Reason' });
    expect(
      within(reasons)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual([...REPORT_REASONS]);
    for (const reason of REPORT_REASONS) {
      expect(within(reasons).getByRole('radio', { name: REPORT_REASON_WORDS[reason] })).not.toBeChecked();
    }
    expect(within(dialog).getByRole('textbox', { name: 'Note (optional)' })).toHaveAttribute('maxlength', '1000');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(reportButton()).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for a reason before sending anything', async () => {
    const fetchMock = stubApi();
    const { user } = renderButton();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByRole('group', { name: 'Reason' })).toHaveAccessibleDescription('Choose a reason');
    expect(within(dialog).getByRole('radio', { name: REPORT_REASON_WORDS.spam })).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the reason and the note, waits disabled, then shows the server’s message; Done returns focus', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = vi.fn((_url: string, _init?: RequestInit) => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const { user } = renderButton();
    const dialog = await openDialog(user);

    await user.click(within(dialog).getByRole('radio', { name: REPORT_REASON_WORDS.harassment }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), '  Insults me by name  ');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));

    expect(within(dialog).getByRole('button', { name: 'Send report' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: REPORT_REASON_WORDS.spam })).toBeDisabled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect([init?.method, url]).toEqual(['POST', '/api/reports']);
    expect(JSON.parse(init?.body as string)).toEqual({
      kind: 'review',
      id: 'r1',
      reason: 'harassment',
      note: 'Insults me by name',
    });

    act(() => answer(jsonResponse({ message: REPORT_MSG.received, report: { _id: 'rep1' } }, 201)));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(REPORT_MSG.received);
    const close = within(dialog).getByRole('button', { name: 'Done' });
    await waitFor(() => expect(close).toHaveFocus());
    expect(close).toHaveAccessibleDescription(REPORT_MSG.received);
    await user.click(close);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(reportButton()).toHaveFocus();
  });

  it('shows the server’s message when this person already reported it (409)', async () => {
    stubApi((url) =>
      url.pathname === '/api/reports'
        ? jsonResponse({ message: REPORT_MSG.already, statusCode: 409, code: 'ALREADY_REPORTED' }, 409)
        : undefined,
    );
    const { user } = renderButton();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: REPORT_REASON_WORDS.spam }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(REPORT_MSG.already);
    expect(within(dialog).queryByRole('button', { name: 'Send report' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps the form with the server’s message and field error when it refuses the report', async () => {
    stubApi((url) =>
      url.pathname === '/api/reports'
        ? jsonResponse(
            {
              message: 'Please check the highlighted fields',
              statusCode: 400,
              code: 'VALIDATION_FAILED',
              errors: { note: 'Keep the note under 1,000 characters' },
            },
            400,
          )
        : undefined,
    );
    const { user } = renderButton();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: REPORT_REASON_WORDS.other }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please check the highlighted fields');
    const note = within(dialog).getByRole('textbox', { name: 'Note (optional)' });
    expect(note).toHaveAccessibleDescription(expect.stringContaining('Keep the note under 1,000 characters'));
    expect(note).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('button', { name: 'Send report' })).toBeEnabled();
  });

  it('shows the network failure and lets the person try again', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const { user } = renderButton();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: REPORT_REASON_WORDS.spam }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/could not reach spotter/i);
    expect(within(dialog).getByRole('button', { name: 'Send report' })).toBeEnabled();
  });
});
