import {
  isId,
  PEOPLE_MSG,
  type TConsoleReport,
  type TPersonActionResponse,
  type TPersonDetail,
  type TPersonPageResponse,
  type TPersonSummary,
  type TPeopleQuery,
} from '@spotter/shared';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { listAudit, writeAudit, type ConsoleDeps } from './operators';
import * as repo from './people.repo';

/** Why an account's sessions end: the bookings module's reasons (wired in app.ts). */
type LeftReason = 'suspended' | 'account-deleted';

/**
 * What the console needs of other modules to act on a person, wired in app.ts so this module
 * imports none of them (docs/architecture.md#routes-services-repos).
 */
export type PeopleHooks = {
  /** Their holds released and upcoming paid sessions refunded in full: a durable job enqueued in the action's transaction. */
  accountLeft(tx: Tx, who: { role: 'user' | 'trainer'; id: string }, reason: LeftReason): Promise<unknown>;
  /** The account deleted as its owner would delete it (photos, weights, favourites, anonymised), in the action's transaction. */
  deleteAccount(tx: Tx, id: string): Promise<void>;
  /** Reports against their reviews, messages or profile (the moderation module), newest first. */
  reportsAbout(subjectId: string): Promise<TConsoleReport[]>;
};

export type PeopleDeps = ConsoleDeps & { people: PeopleHooks };

function summary(r: repo.PersonRow | Awaited<ReturnType<typeof repo.searchPeople>>[number]): TPersonSummary {
  return {
    _id: r.id,
    role: r.role,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    city: r.city,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    openReports: r.openReports,
  };
}

function detail(r: repo.PersonRow): TPersonDetail {
  return {
    ...summary(r),
    phone: r.phone,
    title: r.title,
    description: r.description,
    picture: r.picture,
    emailVerified: r.emailVerifiedAt !== null,
    suspendedAt: r.suspendedAt?.toISOString() ?? null,
    suspensionReason: r.suspensionReason,
    profileHidden: r.profileHiddenAt !== null,
    priceCents: r.priceCents,
    ratingAvg: Number(r.ratingAvg),
    ratingCount: r.ratingCount,
  };
}

/** What the audit log keeps of a person's state before and after an action. */
const stateOf = (r: repo.PersonRow) => ({ status: r.status, suspensionReason: r.suspensionReason });

export async function searchPeople(deps: Pick<ConsoleDeps, 'db'>, query: TPeopleQuery): Promise<TPersonSummary[]> {
  return (await repo.searchPeople(deps.db, query)).map(summary);
}

async function personOr404(deps: Pick<ConsoleDeps, 'db'>, id: string) {
  const row = isId(id) ? await repo.findPerson(deps.db, id) : undefined;
  if (!row) throw new AppError('NOT_FOUND', PEOPLE_MSG.notFound);
  return row;
}

/** A person's page: their account, sessions, payments, reviews, reports against them and the audit entries about them. */
export async function personPage(deps: PeopleDeps, id: string): Promise<TPersonPageResponse> {
  const row = await personOr404(deps, id);
  const [bookings, payments, reviews, reports, audit] = await Promise.all([
    repo.bookingsOf(deps.db, id),
    repo.paymentsOf(deps.db, id),
    repo.reviewsOf(deps.db, id),
    deps.people.reportsAbout(id),
    listAudit(deps, { targetId: id, limit: 100 }),
  ]);
  return {
    person: detail(row),
    bookings: bookings.map((b) => ({
      _id: b.id,
      withId: b.userId === id ? b.trainerId : b.userId,
      withName: `${b.otherFirst} ${b.otherLast}`.trim(),
      startsAt: b.startsAt.toISOString(),
      status: b.status,
      priceCents: b.priceCents,
    })),
    payments: payments.map((p) => ({
      _id: p.id,
      bookingId: p.bookingId,
      amountCents: p.amountCents,
      refundedCents: p.refundedCents,
      status: p.status,
      createdAt: p.createdAt.toISOString(),
    })),
    reviews: reviews.map((r) => ({
      _id: r.id,
      trainerId: r.trainerId,
      userId: r.userId,
      by: r.userId === id ? ('person' as const) : ('other' as const),
      rating: r.rating,
      comment: r.comment,
      hidden: r.hiddenAt !== null,
      createdAt: r.createdAt.toISOString(),
    })),
    reports,
    audit,
  };
}

type Action = { operatorId: string; id: string; reason: string };

/**
 * One change of a person's state in one transaction with its audit entry: the account locked (two
 * operators queue), `change` refuses what does not apply, and the entry records before and after.
 */
async function act(
  deps: PeopleDeps,
  { operatorId, id, reason }: Action,
  action: string,
  change: (tx: Tx, row: repo.PersonRow) => Promise<void>,
): Promise<repo.PersonRow> {
  await personOr404(deps, id);
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = (await repo.lockPerson(tx, id))!;
    await change(tx, before);
    const after = (await repo.findPerson(tx, id))!;
    await writeAudit(tx, {
      at,
      operatorId,
      action,
      targetKind: before.role,
      targetId: id,
      reason,
      before: stateOf(before),
      after: stateOf(after),
    });
    return after;
  });
}

/**
 * Suspended (docs/product.md#suspending-an-account): no sign-in (they read `reason`), every token and
 * socket ended at once on every process (the token version moves on and the database announces it),
 * a trainer unlisted, and their upcoming paid sessions cancelled and refunded in full by the
 * bookings module's job, enqueued in this transaction.
 */
export async function suspendPerson(deps: PeopleDeps, input: Action): Promise<TPersonActionResponse> {
  const row = await act(deps, input, 'person.suspend', async (tx, before) => {
    if (before.status === 'deleted') throw new AppError('CONFLICT', PEOPLE_MSG.alreadyDeleted);
    if (before.status === 'suspended') throw new AppError('CONFLICT', PEOPLE_MSG.alreadySuspended);
    await repo.suspendAccount(tx, before.id, input.reason, deps.now());
    await deps.people.accountLeft(tx, { role: before.role, id: before.id }, 'suspended');
  });
  return { person: detail(row), message: PEOPLE_MSG.suspended };
}

/** Restored: they sign in again; a trainer is listed again. Sessions refunded stay refunded. */
export async function restorePerson(deps: PeopleDeps, input: Action): Promise<TPersonActionResponse> {
  const row = await act(deps, input, 'person.restore', async (tx, before) => {
    if (before.status !== 'suspended') throw new AppError('CONFLICT', PEOPLE_MSG.notSuspended);
    await repo.restoreAccount(tx, before.id);
  });
  return { person: detail(row), message: PEOPLE_MSG.restored };
}

/**
 * Deleted as its owner would delete it (personal data blanked, reviews kept under "Former member"),
 * with the suspension's path for their sessions: every upcoming paid one refunded in full.
 */
export async function deletePerson(deps: PeopleDeps, input: Action): Promise<TPersonActionResponse> {
  const row = await act(deps, input, 'person.delete', async (tx, before) => {
    if (before.status === 'deleted') throw new AppError('CONFLICT', PEOPLE_MSG.alreadyDeleted);
    await deps.people.deleteAccount(tx, before.id);
    // a trainer's deletion enqueues their refunds itself (the accounts module's hook); a user's, here
    if (before.role === 'user') await deps.people.accountLeft(tx, { role: 'user', id: before.id }, 'account-deleted');
  });
  return { person: detail(row), message: PEOPLE_MSG.deleted };
}
