import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MONEY_MSG, type TConsoleBooking } from '@spotter/shared';
import { consoleSession } from '@/lib/api/console';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { bookingsRoute, makeBooking } from '../testing/booking-fixtures';
import { meRoute, TOKEN } from '../testing/console-fixtures';
import { renderConsole, requestOf } from '../testing/render-console';

beforeEach(() => consoleSession.signIn(TOKEN));
afterEach(() => {
  consoleSession.signOut();
  sessionStorage.clear();
});

const BOOKING = makeBooking({ refunded: 0.25, refundable: 149.75 });

/** A server whose sessions list changes after a refund, answering the refund with `answer`. */
function moneyServer(answer: (id: string, body: unknown) => Response, after: TConsoleBooking = BOOKING) {
  let refunded = false;
  const fetchMock = stubApi(
    meRoute,
    bookingsRoute(
      () => jsonResponse({ bookings: [refunded ? after : BOOKING] }),
      (id, body) => {
        const response = answer(id, body);
        if (response.ok) refunded = true;
        return response;
      },
    ),
  );
  return {
    fetchMock,
    refunds: () => fetchMock.mock.calls.map(requestOf).filter((r) => r.method === 'POST'),
  };
}

const refundOk = (amount: number, status: 'completed' | 'pending' = 'completed') =>
  jsonResponse({
    refund: { refundId: 'r1', bookingId: 'b1', amount, status, refundedTotal: 0.25 + amount, left: 149.75 - amount },
    message: status === 'completed' ? MONEY_MSG.refunded(`$${amount.toFixed(2)}`) : MONEY_MSG.pending(`$${amount.toFixed(2)}`),
  });

async function openDialog() {
  const rendered = renderConsole('/console/bookings');
  const button = await screen.findByRole('button', { name: 'Refund…: session of Omar Fathy with Nadia Samir' });
  await rendered.user.click(button);
  const dialog = screen.getByRole('dialog', { name: 'Refund this session?' });
  return { ...rendered, button, dialog };
}

describe('refunding a session', () => {
  it('opens on the reason, says what happens, and refunds all that is left by default', async () => {
    const server = moneyServer(() => refundOk(149.75), makeBooking({ refunded: 150, refundable: 0, status: 'refunded' }));
    const { user, dialog } = await openDialog();
    expect(within(dialog).getByLabelText('Reason')).toHaveFocus();
    expect(within(dialog).getByLabelText('Refund all that is left ($149.75)')).toBeChecked();
    const amount = within(dialog).getByLabelText('Amount in dollars');
    expect(amount).toHaveValue('149.75');
    expect(amount).toBeDisabled();
    expect(amount).toHaveAccessibleDescription('At most $149.75');
    expect(dialog).toHaveTextContent('Both people are told by mail; the trainer’s share goes down in proportion');

    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(within(dialog).getByText('Give a reason: it is kept in the audit log')).toBeInTheDocument();
    expect(server.refunds()).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Reason'), 'trainer did not come');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    const message = await screen.findByText(MONEY_MSG.refunded('$149.75'));
    expect(message).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.refunds()).toEqual([
      {
        method: 'POST',
        url: '/api/console/bookings/b1/refund',
        authorization: `Bearer ${TOKEN}`,
        body: { reason: 'trainer did not come' },
      },
    ]);
    // the list is asked again: nothing is left to refund
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Refund…/ })).not.toBeInTheDocument());
  });

  it('refunds part of the payment with the amount typed, once however often Send is pressed', async () => {
    // the refund answers when the test says so
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = stubApi(
      meRoute,
      bookingsRoute(
        () => jsonResponse({ bookings: [BOOKING] }),
        () => new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response,
      ),
    );

    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByLabelText('Refund all that is left ($149.75)'));
    const amount = within(dialog).getByLabelText('Amount in dollars');
    expect(amount).toBeEnabled();
    await user.clear(amount);
    await user.type(amount, '25.50');
    await user.type(within(dialog).getByLabelText('Reason'), 'late by half an hour');
    expect(dialog).toHaveTextContent('$25.50 goes back to Omar Fathy’s card');
    const send = within(dialog).getByRole('button', { name: 'Send the refund' });
    await user.click(send);
    expect(send).toBeDisabled();
    await user.click(send);
    const posts = fetchMock.mock.calls.map(requestOf).filter((r) => r.method === 'POST');
    expect(posts).toEqual([
      {
        method: 'POST',
        url: '/api/console/bookings/b1/refund',
        authorization: `Bearer ${TOKEN}`,
        body: { amount: 25.5, reason: 'late by half an hour' },
      },
    ]);
    answer(refundOk(25.5));
    expect(await screen.findByText(MONEY_MSG.refunded('$25.50'))).toHaveFocus();
  });

  it('checks the amount before sending it', async () => {
    const server = moneyServer(() => refundOk(1));
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByLabelText('Refund all that is left ($149.75)'));
    const amount = within(dialog).getByLabelText('Amount in dollars');
    await user.type(within(dialog).getByLabelText('Reason'), 'late by half an hour');

    await user.clear(amount);
    await user.type(amount, '200');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(amount).toHaveAccessibleDescription(`At most $149.75 ${MONEY_MSG.tooMuch('$149.75')}`);
    expect(amount).toHaveFocus();

    await user.clear(amount);
    await user.type(amount, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(within(dialog).getByText('Give an amount above zero')).toBeInTheDocument();

    await user.clear(amount);
    await user.type(amount, 'ten');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(within(dialog).getByText('Give the amount to refund in dollars, such as 25.50')).toBeInTheDocument();
    expect(server.refunds()).toHaveLength(0);
  });

  it('shows the server’s 400 by the field it is about', async () => {
    moneyServer(() =>
      jsonResponse(
        {
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: MONEY_MSG.tooMuch('$100'),
          errors: { amount: MONEY_MSG.tooMuch('$100') },
        },
        400,
      ),
    );
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByLabelText('Refund all that is left ($149.75)'));
    const amount = within(dialog).getByLabelText('Amount in dollars');
    await user.clear(amount);
    await user.type(amount, '120');
    await user.type(within(dialog).getByLabelText('Reason'), 'late by half an hour');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(await within(dialog).findByText(MONEY_MSG.tooMuch('$100'))).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveFocus();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('shows the server’s word about the reason by the reason', async () => {
    moneyServer(() =>
      jsonResponse(
        {
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'Invalid request',
          errors: { reason: 'Keep the reason under 500 characters' },
        },
        400,
      ),
    );
    const { user, dialog } = await openDialog();
    const reason = within(dialog).getByLabelText('Reason');
    await user.type(reason, 'trainer did not come');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(await within(dialog).findByText('Keep the reason under 500 characters')).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveFocus();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a 409 in the dialog (nothing left, or no card payment)', async () => {
    moneyServer(() => jsonResponse({ statusCode: 409, code: 'CONFLICT', message: MONEY_MSG.nothingLeft }, 409));
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Reason'), 'trainer did not come');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MONEY_MSG.nothingLeft);
    expect(within(dialog).getByRole('button', { name: 'Send the refund' })).toBeEnabled();
  });

  it('says plainly when the provider did not answer yet (pending)', async () => {
    moneyServer(() => refundOk(149.75, 'pending'));
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Reason'), 'trainer did not come');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    const message = await screen.findByText(MONEY_MSG.pending('$149.75'));
    expect(message.closest('[role="status"]')).toHaveTextContent(`Pending: ${MONEY_MSG.pending('$149.75')}`);
    expect(message.closest('[role="status"]')).toHaveFocus();
  });

  it('sends one Idempotency-Key per opened dialog, the same again when a send from it is retried', async () => {
    let calls = 0;
    const server = moneyServer(
      () =>
        ++calls === 1
          ? jsonResponse({ statusCode: 503, code: 'UNAVAILABLE', message: 'Try again in a moment' }, 503)
          : refundOk(10),
      BOOKING,
    );
    const keys = () =>
      server.fetchMock.mock.calls
        .filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')
        .map(([, init]) => new Headers((init as RequestInit).headers).get('idempotency-key'));
    const { user, dialog, button } = await openDialog();
    await user.type(within(dialog).getByLabelText('Reason'), 'late');
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Try again in a moment');
    // the operator sends again from the same dialog: the same key, so the server makes one refund of both
    await user.click(within(dialog).getByRole('button', { name: 'Send the refund' }));
    expect(await screen.findByText(MONEY_MSG.refunded('$10.00'))).toBeInTheDocument();
    const [first, retry] = keys();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retry).toBe(first);

    // a refund opened anew is a new request: a new key
    await user.click(button);
    const again = screen.getByRole('dialog', { name: 'Refund this session?' });
    await user.type(within(again).getByLabelText('Reason'), 'late');
    await user.click(within(again).getByRole('button', { name: 'Send the refund' }));
    await waitFor(() => expect(keys()).toHaveLength(3));
    expect(keys()[2]).not.toBe(first);
  });

  it('closes on Escape and on Cancel, the focus back on its button, sending nothing', async () => {
    const server = moneyServer(() => refundOk(1));
    const { user, button, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Reason'), 'oops');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    await user.click(button);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(button).toHaveFocus();
    expect(server.refunds()).toHaveLength(0);
  });
});
