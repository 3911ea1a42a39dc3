import { and, asc, eq, gt, isNotNull, isNull, lt, lte, ne, or, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { accounts, availability, bookings, disputes, packageBalances } from '../../db/schema';
import { CURRENT_POLICY } from '@spotter/shared';
import type { SessionLocation } from './availability.repo';

type Q = Db | Tx;
const trainer = alias(accounts, 'trainer');
const member = alias(accounts, 'member');

const bookingColumns = {
  id: bookings.id,
  trainerId: bookings.trainerId,
  userId: bookings.userId,
  startsAt: bookings.startsAt,
  endsAt: bookings.endsAt,
  status: bookings.status,
  priceCents: bookings.priceCents,
  currency: bookings.currency,
  holdExpiresAt: bookings.holdExpiresAt,
  provider: bookings.provider,
  providerOrderId: bookings.providerOrderId,
  createdAt: bookings.createdAt,
  location: bookings.location,
  cancelledBy: bookings.cancelledBy,
  cancelReason: bookings.cancelReason,
  sequence: bookings.sequence,
  balanceId: bookings.balanceId,
  /** What paid it, when a balance did: a package, or a weekly series' payment by card. */
  balanceKind: packageBalances.kind,
  seriesId: bookings.seriesId,
  releasedAt: bookings.releasedAt,
  /** The policy frozen on it when it was booked (null: version 1). */
  policy: bookings.policy,
  /** Its dispute's state (docs/decisions/047-disputes-by-rule.md), or null. */
  disputeStatus: disputes.status,
  /** The trainer's zone (null when they never set hours: the default zone). */
  timeZone: availability.timeZone,
  trainerFirstName: trainer.firstName,
  trainerLastName: trainer.lastName,
  trainerEmail: trainer.email,
  trainerDeletedAt: trainer.deletedAt,
  userFirstName: member.firstName,
  userLastName: member.lastName,
  userEmail: member.email,
  userDeletedAt: member.deletedAt,
};

const withNames = (db: Q) =>
  db
    .select(bookingColumns)
    .from(bookings)
    .innerJoin(trainer, eq(trainer.id, bookings.trainerId))
    .innerJoin(member, eq(member.id, bookings.userId))
    .leftJoin(availability, eq(availability.trainerId, bookings.trainerId))
    .leftJoin(packageBalances, eq(packageBalances.id, bookings.balanceId))
    .leftJoin(disputes, eq(disputes.bookingId, bookings.id));

export async function findBooking(db: Q, id: string) {
  const [row] = await withNames(db).where(eq(bookings.id, id)).limit(1);
  return row;
}
export type BookingRow = NonNullable<Awaited<ReturnType<typeof findBooking>>>;

/** Marks held weeks of a weekly series as the ones its payment (a `series` balance) is for. */
export async function markHeldFor(tx: Tx, ids: string[], balanceId: string) {
  if (!ids.length) return;
  await tx
    .update(bookings)
    .set({ balanceId })
    .where(
      and(
        sql`${bookings.id} in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
        eq(bookings.status, 'pending'),
      ),
    );
}

/** The user's bookings of a weekly series, soonest first (at most 12). */
export async function seriesBookingsOf(db: Q, seriesId: string, userId: string) {
  return withNames(db)
    .where(and(eq(bookings.seriesId, seriesId), eq(bookings.userId, userId)))
    .orderBy(asc(bookings.startsAt))
    .limit(12);
}

export async function findBookingByOrder(db: Q, providerOrderId: string) {
  const [row] = await withNames(db).where(eq(bookings.providerOrderId, providerOrderId)).limit(1);
  return row;
}

/**
 * A user's sessions or a trainer's schedule: live and settled bookings (not lapsed holds), the ones
 * still to come first (soonest first), then the past ones (latest first).
 */
export async function listBookingsOf(db: Q, who: { role: 'user' | 'trainer'; id: string }, now: Date) {
  const owner = who.role === 'trainer' ? eq(bookings.trainerId, who.id) : eq(bookings.userId, who.id);
  const visible = or(
    and(eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now)),
    and(ne(bookings.status, 'pending'), ne(bookings.status, 'expired')),
  );
  return withNames(db)
    .where(and(owner, visible))
    .orderBy(
      sql`case when ${bookings.endsAt} > ${now.toISOString()}::timestamptz then 0 else 1 end`,
      sql`case when ${bookings.endsAt} > ${now.toISOString()}::timestamptz then ${bookings.startsAt} end asc`,
      sql`${bookings.startsAt} desc`,
    )
    .limit(500);
}

/** Confirmed sessions of a trainer that have not started yet. */
export async function listUpcomingConfirmed(db: Q, who: { role: 'user' | 'trainer'; id: string }, now: Date) {
  const owner = who.role === 'trainer' ? eq(bookings.trainerId, who.id) : eq(bookings.userId, who.id);
  return withNames(db)
    .where(and(owner, eq(bookings.status, 'confirmed'), gt(bookings.startsAt, now)))
    .orderBy(asc(bookings.startsAt))
    .limit(500);
}

/** Whether the account exists and has verified its e-mail address (bookings are confirmed by mail). */
export async function isVerifiedAccount(db: Q, id: string) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt), isNotNull(accounts.emailVerifiedAt)))
    .limit(1);
  return !!row;
}

/**
 * Serialises one user's holds and releases (the pending-hold limit and the re-hold wait count under
 * it). `no key update`: it does not wait for, nor block, the key-share locks of foreign keys, so a
 * capture inserting a payment of this user (while it has the booking row locked) cannot deadlock
 * with a release waiting for that row.
 */
export async function lockAccount(tx: Tx, id: string) {
  await tx.execute(sql`select id from accounts where id = ${id} for no key update`);
}

export async function countLiveHolds(tx: Q, userId: string, now: Date) {
  const [row] = await tx
    // the held weeks of one weekly series count as one hold
    .select({ n: sql<number>`count(distinct coalesce(${bookings.seriesId}, ${bookings.id}))::int` })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now)));
  return row.n;
}

/**
 * When the user's latest unpaid hold on this slot ended, or undefined when none did after `since`:
 * a released one at its cancellation (only holds are ever 'cancelled'; paid sessions are
 * 'refunded'), one the job expired when it did so (at its expiry, give or take the job's poll), one
 * that ran out but is still 'pending' at its expiry. One index read of the slot's rows.
 */
export async function lastHoldEndedAt(q: Q, slot: { userId: string; trainerId: string; startsAt: Date; since: Date; now: Date }) {
  const endedAt = sql<Date | string | null>`max(case ${bookings.status}
    when 'cancelled' then ${bookings.cancelledAt}
    when 'expired' then ${bookings.updatedAt}
    else ${bookings.holdExpiresAt} end)`;
  const [row] = await q
    .select({ endedAt })
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, slot.userId),
        eq(bookings.startsAt, slot.startsAt),
        eq(bookings.trainerId, slot.trainerId),
        or(
          and(eq(bookings.status, 'cancelled'), gt(bookings.cancelledAt, slot.since)),
          and(eq(bookings.status, 'expired'), gt(bookings.updatedAt, slot.since)),
          and(eq(bookings.status, 'pending'), lte(bookings.holdExpiresAt, slot.now), gt(bookings.holdExpiresAt, slot.since)),
        ),
      ),
    );
  return row?.endedAt ? new Date(row.endedAt) : undefined;
}

/** A hold on this slot that ran out no longer blocks it (expired lazily, before the job gets to it). */
export async function expireLapsedHoldAt(tx: Tx, trainerId: string, startsAt: Date, now: Date) {
  await tx
    .update(bookings)
    .set({ status: 'expired', holdExpiresAt: null, updatedAt: now })
    .where(
      and(
        eq(bookings.trainerId, trainerId),
        eq(bookings.startsAt, startsAt),
        eq(bookings.status, 'pending'),
        lte(bookings.holdExpiresAt, now),
      ),
    );
}

/**
 * Inserts a pending booking unless the slot already has a live one: the partial unique index
 * (trainer_id, starts_at) where status in ('pending', 'confirmed') decides between racing requests.
 */
export async function insertHold(
  tx: Tx,
  values: {
    trainerId: string;
    userId: string;
    startsAt: Date;
    endsAt: Date;
    priceCents: number;
    holdExpiresAt: Date;
    location: SessionLocation | null;
    /** One of the held weeks of a weekly series paid by card. */
    seriesId?: string | null;
    now: Date;
  },
) {
  const { now, seriesId, ...rest } = values;
  const [row] = await tx
    .insert(bookings)
    .values({
      ...rest,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
      sequence: 0,
      balanceId: null,
      seriesId: seriesId ?? null,
      releasedAt: null,
      // the cancellation, no-show and dispute policy frozen on it (docs/decisions/052-frozen-session-policy.md)
      policy: { ...CURRENT_POLICY },
    })
    .onConflictDoNothing()
    .returning({ id: bookings.id });
  return row?.id;
}

/**
 * Inserts a session paid from a package balance, confirmed at once, unless the slot has a live
 * booking (the same unique index as a hold's).
 */
export async function insertPaidFromBalance(
  tx: Tx,
  values: {
    trainerId: string;
    userId: string;
    startsAt: Date;
    endsAt: Date;
    priceCents: number;
    location: SessionLocation | null;
    balanceId: string;
    seriesId: string | null;
    now: Date;
  },
) {
  const { now, ...rest } = values;
  const [row] = await tx
    .insert(bookings)
    .values({
      ...rest,
      status: 'confirmed',
      holdExpiresAt: null,
      createdAt: now,
      updatedAt: now,
      sequence: 0,
      releasedAt: null,
      // the cancellation, no-show and dispute policy frozen on it (docs/decisions/052-frozen-session-policy.md)
      policy: { ...CURRENT_POLICY },
    })
    .onConflictDoNothing()
    .returning({ id: bookings.id });
  return row?.id;
}

/**
 * Whether the trainer has a live session (confirmed, or a hold not run out) overlapping [from, until),
 * other than one starting at `except` (that slot's own conflict is the unique index's) and the
 * booking `exceptBooking` (a session being moved).
 */
export async function hasLiveSessionNear(
  q: Q,
  {
    trainerId,
    from,
    until,
    except,
    exceptBooking,
    now,
  }: { trainerId: string; from: Date; until: Date; except: Date; exceptBooking?: string; now: Date },
) {
  const [row] = await q
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.trainerId, trainerId),
        lt(bookings.startsAt, until),
        gt(bookings.endsAt, from),
        ne(bookings.startsAt, except),
        exceptBooking ? ne(bookings.id, exceptBooking) : undefined,
        // a session released for resale no longer holds its time
        isNull(bookings.releasedAt),
        or(eq(bookings.status, 'confirmed'), and(eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now))),
      ),
    )
    .limit(1);
  return !!row;
}

/** Ties the payment order to a live hold (its price was frozen when it was held); false when the hold is gone. */
export async function attachOrder(
  db: Q,
  id: string,
  values: { userId: string; provider: string; providerOrderId: string; holdExpiresAt: Date; now: Date },
) {
  const rows = await db
    .update(bookings)
    .set({
      provider: values.provider,
      providerOrderId: values.providerOrderId,
      holdExpiresAt: sql`greatest(${bookings.holdExpiresAt}, ${values.holdExpiresAt.toISOString()}::timestamptz)`,
      updatedAt: values.now,
    })
    .where(
      and(
        eq(bookings.id, id),
        eq(bookings.userId, values.userId),
        eq(bookings.status, 'pending'),
        gt(bookings.holdExpiresAt, values.now),
        // never replaces another order: one live order per booking
        or(isNull(bookings.providerOrderId), eq(bookings.providerOrderId, values.providerOrderId)),
      ),
    )
    .returning({ id: bookings.id });
  return rows.length > 0;
}

/** Keeps a live hold alive while its payment is captured; false when it has already run out. */
export async function extendLiveHold(db: Q, id: string, until: Date, now: Date) {
  const rows = await db
    .update(bookings)
    .set({ holdExpiresAt: sql`greatest(${bookings.holdExpiresAt}, ${until.toISOString()}::timestamptz)`, updatedAt: now })
    .where(and(eq(bookings.id, id), eq(bookings.status, 'pending'), gt(bookings.holdExpiresAt, now)))
    .returning({ id: bookings.id });
  return rows.length > 0;
}

/**
 * pending → confirmed; false when the booking is no longer pending (cancelled or expired meanwhile),
 * its session has started, or its trainer is gone: money that arrives then is refunded
 * (docs/decisions/042-money-ledger.md#captures).
 */
export async function confirmBooking(tx: Tx, id: string, now: Date, paidFrom: { balanceId: string } | null = null) {
  const rows = await tx
    .update(bookings)
    .set({ status: 'confirmed', holdExpiresAt: null, updatedAt: now, ...(paidFrom ? { balanceId: paidFrom.balanceId } : {}) })
    .where(
      and(
        eq(bookings.id, id),
        eq(bookings.status, 'pending'),
        gt(bookings.startsAt, now),
        sql`exists (select 1 from ${accounts} a where a.id = ${bookings.trainerId} and a.deleted_at is null)`,
      ),
    )
    .returning({ id: bookings.id });
  return rows.length > 0;
}

/**
 * Moves a confirmed session still at `from` to another time, raising its calendar SEQUENCE: one
 * statement, so its old slot is free only once the new one is its own. Another live booking at the
 * new time fails it with a unique violation of `bookings_live_slot_uq` (the caller answers SLOT_TAKEN);
 * false when the session is no longer confirmed at `from` (cancelled or moved meanwhile).
 */
export async function moveBooking(tx: Tx, id: string, move: { from: Date; startsAt: Date; endsAt: Date; now: Date }) {
  const rows = await tx
    .update(bookings)
    .set({ startsAt: move.startsAt, endsAt: move.endsAt, sequence: sql`${bookings.sequence} + 1`, updatedAt: move.now })
    .where(and(eq(bookings.id, id), eq(bookings.status, 'confirmed'), eq(bookings.startsAt, move.from)))
    .returning({ id: bookings.id });
  return rows.length > 0;
}

/** Moves a booking on from one status to another, only if it is still in the first. */
export async function changeStatus(
  q: Q,
  id: string,
  from: 'pending' | 'confirmed',
  to: 'cancelled' | 'refunded' | 'expired' | 'completed',
  now: Date,
  extra: { requireLapsedHold?: boolean; cancelledBy?: 'user' | 'trainer'; cancelReason?: string | null } = {},
) {
  const rows = await q
    .update(bookings)
    .set({
      status: to,
      holdExpiresAt: null,
      updatedAt: now,
      ...(to === 'cancelled' || to === 'refunded'
        ? { cancelledAt: now, cancelledBy: extra.cancelledBy ?? null, cancelReason: extra.cancelReason || null }
        : {}),
    })
    .where(
      and(eq(bookings.id, id), eq(bookings.status, from), extra.requireLapsedHold ? lte(bookings.holdExpiresAt, now) : undefined),
    )
    .returning({ id: bookings.id });
  return rows.length > 0;
}

/** A paid session (confirmed, or over and completed) becomes a no-show; false when it no longer is paid. */
export async function markNoShow(q: Q, id: string, now: Date) {
  const rows = await q
    .update(bookings)
    .set({ status: 'no-show', updatedAt: now })
    .where(and(eq(bookings.id, id), or(eq(bookings.status, 'confirmed'), eq(bookings.status, 'completed'))))
    .returning({ id: bookings.id });
  return rows.length > 0;
}

/**
 * The trainer's subscribers as a scalar subquery: distinct users with a paid (confirmed,
 * completed or a no-show) booking. The trainers repo reads it beside the profile, in the same statement.
 * `trainerId` must render qualified (drizzle leaves a one-table select's columns bare, and a bare
 * "id" here would be the booking's).
 */
export const subscriberCount = (trainerId: SQLWrapper) =>
  sql<number>`(select count(distinct b.user_id)::int from ${bookings} as b
    where b.trainer_id = ${trainerId} and b.status in ('confirmed', 'completed', 'no-show'))`;

/** Whether the user had a paid session with the trainer that is over. */
export async function hasCompletedSession(db: Q, userId: string, trainerId: string, now: Date) {
  const [row] = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.userId, userId),
        eq(bookings.trainerId, trainerId),
        or(eq(bookings.status, 'completed'), and(eq(bookings.status, 'confirmed'), lte(bookings.endsAt, now))),
      ),
    )
    .limit(1);
  return !!row;
}

/** Which of `userIds` had a paid session with the trainer that is over, in one query. */
/**
 * Whether the user had a paid session with the trainer that is over (a review's "verified
 * session", docs/product.md#reviews), as an EXISTS the reviews repo reads beside each review. The ids must
 * render qualified, as for `subscriberCount`.
 */
export const completedSessionOf = (userId: SQLWrapper, trainerId: SQLWrapper, now: SQLWrapper) =>
  sql<boolean>`exists (select 1 from ${bookings} as b
    where b.user_id = ${userId} and b.trainer_id = ${trainerId}
      and (b.status = 'completed' or (b.status = 'confirmed' and b.ends_at <= ${now})))`;

/** An account's mail address and names, and (a trainer's) time zone. */
export async function contactOf(db: Q, id: string) {
  const [row] = await db
    .select({
      email: accounts.email,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      deletedAt: accounts.deletedAt,
      timeZone: availability.timeZone,
    })
    .from(accounts)
    .leftJoin(availability, eq(availability.trainerId, accounts.id))
    .where(eq(accounts.id, id))
    .limit(1);
  return row;
}

/** Its user releases a paid session for resale: it stays theirs and paid, and no longer holds its slot. */
export async function markReleased(q: Q, id: string, now: Date): Promise<boolean> {
  const rows = await q
    .update(bookings)
    .set({ releasedAt: now, updatedAt: now })
    .where(and(eq(bookings.id, id), eq(bookings.status, 'confirmed'), isNull(bookings.releasedAt)))
    .returning({ id: bookings.id });
  return rows.length > 0;
}

/** The released paid sessions of a slot (somebody else just booked it: each is refunded). */
export async function releasedAt(q: Q, trainerId: string, startsAt: Date, except: string): Promise<string[]> {
  const rows = await q
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.trainerId, trainerId),
        eq(bookings.startsAt, startsAt),
        eq(bookings.status, 'confirmed'),
        isNotNull(bookings.releasedAt),
        ne(bookings.id, except),
      ),
    );
  return rows.map((r) => r.id);
}
