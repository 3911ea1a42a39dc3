import type { TConsoleBooking } from '@spotter/shared';
import { jsonResponse } from '@/testing/render';

export const makeBooking = (overrides: Partial<TConsoleBooking> = {}): TConsoleBooking => ({
  _id: 'b1',
  userId: 'u1',
  userName: 'Omar Fathy',
  trainerId: 't1',
  trainerName: 'Nadia Samir',
  startsAt: '2026-12-01T10:00:00.000Z',
  status: 'completed',
  price: 150,
  paidWith: 'card',
  refunded: 0,
  refundable: 150,
  disputed: false,
  ...overrides,
});

/** A fake money server: GET /bookings answers `bookings`, the refund answers `refund`, the ledger `ledger`. */
export const bookingsRoute =
  (
    bookings: (url: URL) => Response,
    refund: (id: string, body: unknown) => Response = () => jsonResponse({}, 500),
    ledger: () => Response = () => jsonResponse({ checkedAt: '2026-12-06T10:00:00.000Z', differences: [] }),
  ) =>
  (url: URL, init: RequestInit) => {
    const refunding = /^\/api\/console\/bookings\/([^/]+)\/refund$/.exec(url.pathname);
    if (refunding && init.method === 'POST') {
      return refund(decodeURIComponent(refunding[1]), JSON.parse(String(init.body)) as unknown);
    }
    if (url.pathname === '/api/console/bookings') return bookings(url);
    if (url.pathname === '/api/console/ledger') return ledger();
    return undefined;
  };
