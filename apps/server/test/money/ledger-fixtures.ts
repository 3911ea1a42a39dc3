import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { accounts, bookings, payments, refunds } from '../../src/db/schema';
import { account, post } from '../../src/modules/money/ledger.repo';

const HOUR = 60 * 60_000;

/** An account stored directly (no Argon2, no mail): the people a payment is between. */
async function insertAccount(db: Db, role: 'user' | 'trainer') {
  const [row] = await db
    .insert(accounts)
    .values({
      role,
      email: `${role}.${randomUUID()}@example.com`,
      passwordHash: 'not-a-login',
      firstName: role === 'trainer' ? 'Coach' : 'Client',
      lastName: 'Ledger',
      gender: 'male',
      age: 30,
      height: 180,
      weight: 80,
      phone: '01198765432',
      ...(role === 'trainer' ? { title: 'Strength coach', description: 'Barbell basics', city: 'Cairo', priceCents: 15000 } : {}),
      emailVerifiedAt: new Date(),
    })
    .returning({ id: accounts.id });
  return row.id;
}

/**
 * A confirmed booking paid through `provider`, as a capture stores it: the booking, the payment row
 * and the ledger's `payment` transaction (world → trainer pending + fees), keyed as the migration keys them.
 */
export async function paidBooking(db: Db, { amountCents = 15000, feeCents = 1500, currency = 'USD', provider = 'demo' } = {}) {
  const trainerId = await insertAccount(db, 'trainer');
  const userId = await insertAccount(db, 'user');
  const orderId = `ORDER-${randomUUID()}`;
  const captureId = `CAPTURE-${randomUUID()}`;
  const startsAt = new Date(Date.now() + 48 * HOUR);
  const [booking] = await db
    .insert(bookings)
    .values({
      trainerId,
      userId,
      startsAt,
      endsAt: new Date(startsAt.getTime() + HOUR),
      status: 'confirmed',
      priceCents: amountCents,
      currency,
      provider,
      providerOrderId: orderId,
    })
    .returning({ id: bookings.id });
  await db.insert(payments).values({
    bookingId: booking.id,
    userId,
    trainerId,
    provider: provider as 'demo' | 'paypal',
    providerOrderId: orderId,
    captureId,
    amountCents,
    feeCents,
    currency,
    status: 'completed',
    raw: { id: orderId },
  });
  await ledgerPayment(db, {
    provider,
    orderId,
    captureId,
    bookingId: booking.id,
    trainerId,
    userId,
    amountCents,
    feeCents,
    currency,
  });
  return { bookingId: booking.id, trainerId, userId, orderId, captureId, amountCents, feeCents, currency, provider };
}

type PaymentFacts = {
  provider: string;
  orderId: string;
  captureId: string;
  bookingId: string;
  trainerId: string;
  userId: string;
  amountCents: number;
  feeCents: number;
  currency: string;
};

/** The ledger's payment transaction for a capture (written once: `capture:<provider>:<captureId>`). */
export function ledgerPayment(db: Db, p: PaymentFacts) {
  return db.transaction((tx) =>
    post(tx, {
      key: `capture:${p.provider}:${p.captureId}`,
      kind: 'payment',
      bookingId: p.bookingId,
      trainerId: p.trainerId,
      userId: p.userId,
      provider: p.provider,
      providerOrderId: p.orderId,
      entries: [
        { account: account.world(p.provider), amountCents: -p.amountCents, currency: p.currency },
        { account: account.trainerPending(p.trainerId), amountCents: p.amountCents - p.feeCents, currency: p.currency },
        { account: account.fees, amountCents: p.feeCents, currency: p.currency },
      ],
    }),
  );
}

/** A full refund as it is stored once the provider answered: the refunds row (completed), the ledger's refund, the payment marked refunded. */
export async function refundInFull(db: Db, p: Awaited<ReturnType<typeof paidBooking>>) {
  const [row] = await db
    .insert(refunds)
    .values({
      key: `full:${p.bookingId}`,
      bookingId: p.bookingId,
      provider: p.provider as 'demo' | 'paypal',
      providerOrderId: p.orderId,
      captureId: p.captureId,
      amountCents: p.amountCents,
      currency: p.currency,
      status: 'completed',
      reason: 'cancelled',
      completedAt: new Date(),
    })
    .returning({ id: refunds.id });
  await db.transaction((tx) =>
    post(tx, {
      key: `refund:${row.id}`,
      kind: 'refund',
      bookingId: p.bookingId,
      trainerId: p.trainerId,
      userId: p.userId,
      provider: p.provider,
      providerOrderId: p.orderId,
      entries: [
        { account: account.trainerPending(p.trainerId), amountCents: -(p.amountCents - p.feeCents), currency: p.currency },
        { account: account.fees, amountCents: -p.feeCents, currency: p.currency },
        { account: account.world(p.provider), amountCents: p.amountCents, currency: p.currency },
      ],
    }),
  );
  await db
    .update(payments)
    .set({ status: 'refunded', refundedAt: new Date() })
    .where(and(eq(payments.provider, p.provider as 'demo'), eq(payments.providerOrderId, p.orderId)));
  return row.id;
}
