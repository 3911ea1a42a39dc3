import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { REPORT_MSG, REPORT_REASON_WORDS } from '@spotter/shared';
import { callsOf, makeReview, stubApi } from '@/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { ReviewList } from './review-list';

const reviews = [
  makeReview({ _id: 'r1', reviewerFirstName: 'Sara', reviewerLastName: 'Ali' }),
  makeReview({ _id: 'r2', reviewerFirstName: 'Mona', reviewerLastName: 'Adel', isMine: true }),
];

const renderList = () => renderWithProviders(<ReviewList reviews={reviews} firstName="Nadia" />);

function logIn() {
  localStorage.setItem('token', 'header.payload.signature');
  localStorage.setItem('userType', 'user');
}

describe('ReviewList', () => {
  it('has no Report for a visitor', () => {
    renderList();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /^Report/ })).not.toBeInTheDocument();
  });

  it("offers Report on others' reviews to a signed-in person, not on their own", () => {
    logIn();
    renderList();
    const [sara, mine] = screen.getAllByRole('listitem');
    expect(within(sara).getByRole('button', { name: 'Report review by Sara Ali' })).toHaveTextContent('Report');
    expect(within(mine).queryByRole('button', { name: /^Report/ })).not.toBeInTheDocument();
  });

  it('reports a review and shows what the server said', async () => {
    logIn();
    const fetchMock = stubApi((url, init) =>
      url.pathname === '/api/reports' && init.method === 'POST'
        ? jsonResponse({ message: REPORT_MSG.received, report: { _id: 'rep1' } }, 201)
        : undefined,
    );
    const { user } = renderList();
    await user.click(screen.getByRole('button', { name: 'Report review by Sara Ali' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this review' });
    await user.click(within(dialog).getByRole('radio', { name: REPORT_REASON_WORDS['false-information'] }));
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(REPORT_MSG.received);
    expect(callsOf(fetchMock)).toEqual(['POST /api/reports']);
    expect(JSON.parse(fetchMock.mock.calls[0][1]?.body as string)).toEqual({
      kind: 'review',
      id: 'r1',
      reason: 'false-information',
      note: '',
    });
  });
});
