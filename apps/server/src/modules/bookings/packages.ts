import type { z } from 'zod';
import {
  BOOKING_MSG,
  CURRENCY,
  isId,
  PACKAGE_MSG,
  PACKAGE_RULES,
  PAYMENT_MSG,
  PLATFORM_FEE_PERCENT,
  SERVER_MSG,
  type TBalance,
  type TCaptureResponse,
  type TOrderResponse,
  type TTrainerPackage,
  type ZPutPackagesRequest,
} from '@spotter/shared';
import { AppError } from '../../lib/app-error';
import { centsToDecimalString, fromCents, percentOf } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import { account, balance, balances, post, ProviderUnavailableError, type ProviderCapture } from '../money';
import { plainName } from './booking-mails';
import { PACKAGE_JOBS } from './booking-jobs';
import * as bookingsRepo from './bookings.repo';
import { providerOf, requireUser, type BookingsContext } from './context';
import * as repo from './packages.repo';
import { capturePurchase, checkProviderOrder } from './payment-jobs';
import * as paymentsRepo from './payments.repo';
import { refundBalance, refundUnplaced } from './refunds';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** An order of a package not paid within this long is not answered again: a new order is made. */
const ORDER_REUSE_MS = 30 * MINUTE;

/** What one session of a package costs: the total over the sessions, rounded down to the cent. */
const perSessionCents = (p: { priceCents: number; sessions: number }) => Math.floor(p.priceCents / p.sessions);

/**
 * What the next session takes of a balance (docs/product.md#packages): an equal part of what is
 * left, the last session all of it, so the parts add up to what was paid to the cent.
 */
export const redemptionOf = (leftCents: number, sessionsLeft: number) =>
  sessionsLeft <= 1 ? leftCents : Math.floor(leftCents / sessionsLeft);

function toPackage(row: repo.PackageRow): TTrainerPackage {
  return {
    _id: row.id,
    sessions: row.sessions,
    price: fromCents(row.priceCents),
    perSession: fromCents(perSessionCents(row)),
    validityMonths: row.validityMonths,
  };
}

/** The packages the trainers offer now, by trainer id (a profile's `packages`). */
export async function packagesOf(db: BookingsContext['db'], trainerIds: string[]): Promise<Map<string, TTrainerPackage[]>> {
  const out = new Map<string, TTrainerPackage[]>(trainerIds.map((id) => [id, []]));
  for (const row of await repo.livePackagesOf(db, trainerIds)) out.get(row.trainerId)?.push(toPackage(row));
  return out;
}

/** A trainer's packages become the ones sent (docs/product.md#packages); each costs less than its sessions one by one. */
export async function setPackages(
  ctx: BookingsContext,
  { caller, input }: { caller: Caller; input: z.output<typeof ZPutPackagesRequest> },
): Promise<{ message: string; packages: TTrainerPackage[] }> {
  if (caller.role !== 'trainer') throw new AppError('FORBIDDEN_ROLE', PACKAGE_MSG.onlyTrainers);
  const priceCents = await repo.trainerPriceOf(ctx.db, caller.id);
  if (input.packages.length && !priceCents) throw new AppError('CONFLICT', PACKAGE_MSG.setPriceFirst);
  const errors: Record<string, string> = {};
  input.packages.forEach((p, i) => {
    const full = (priceCents ?? 0) * p.sessions;
    if (p.price * 100 >= full) errors[`packages.${i}.price`] = PACKAGE_MSG.notCheaper(fromCents(full));
  });
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', Object.values(errors)[0], errors);
  await ctx.db.transaction((tx) =>
    repo.replacePackages(
      tx,
      caller.id,
      input.packages.map((p) => ({ sessions: p.sessions, priceCents: p.price * 100, validityMonths: p.validityMonths })),
      ctx.now(),
    ),
  );
  return { message: PACKAGE_MSG.saved, packages: (await packagesOf(ctx.db, [caller.id])).get(caller.id) ?? [] };
}

type BalanceEntry = Awaited<ReturnType<typeof repo.balanceEntries>>[number];
const ENTRY_KINDS = new Set(['package', 'redeem', 'unredeem', 'refund', 'expire']);

/** A balance as its user sees it, with what is left of its money and its ledger entries. */
function toBalance(
  row: Awaited<ReturnType<typeof repo.openBalancesOf>>[number],
  leftCents: number,
  entries: BalanceEntry[] = [],
): TBalance {
  return {
    entries: entries
      .filter((e) => e.balanceId === row.id && ENTRY_KINDS.has(e.kind))
      .map((e) => ({
        at: e.at.toISOString(),
        kind: e.kind as TBalance['entries'][number]['kind'],
        amount: fromCents(e.cents),
        startsAt: e.startsAt?.toISOString() ?? null,
      })),
    trainerId: row.trainerId,
    trainerFirstName: row.trainerFirstName,
    trainerLastName: row.trainerLastName,
    amount: fromCents(leftCents),
    perSession: fromCents(perSessionCents(row)),
    sessionsLeft: row.sessionsLeft,
    sessions: row.sessions,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    status: row.status === 'refunding' ? 'refunding' : 'active',
  };
}

/** The caller's balances that still hold money or sessions (docs/product.md#packages). */
export async function listBalances(
  ctx: BookingsContext,
  { caller }: { caller: Caller | undefined },
): Promise<{ balances: TBalance[] }> {
  const user = requireUser(caller);
  const rows = await repo.openBalancesOf(ctx.db, user.id);
  const left = await balances(
    ctx.db,
    rows.map((r) => account.balance(r.id)),
  );
  const entries = await repo.balanceEntries(
    ctx.db,
    rows.map((r) => r.id),
  );
  return {
    balances: rows
      .map((r) => toBalance(r, left.get(account.balance(r.id)) ?? 0, entries))
      .filter((b) => b.sessionsLeft > 0 || b.amount > 0 || b.status === 'refunding'),
  };
}

async function balanceView(ctx: BookingsContext, userId: string, balanceId: string): Promise<TBalance | undefined> {
  const row = (await repo.openBalancesOf(ctx.db, userId)).find((r) => r.id === balanceId);
  if (!row) return undefined;
  const left = await balances(ctx.db, [account.balance(row.id)]);
  return toBalance(row, left.get(account.balance(row.id)) ?? 0, await repo.balanceEntries(ctx.db, [row.id]));
}

/**
 * The order of a package the caller buys (docs/product.md#packages), for the package's price decided
 * here; one package at a time per trainer. Asking again within 30 minutes answers the same order.
 */
export async function createPackageOrder(
  ctx: BookingsContext,
  { caller, packageId }: { caller: Caller | undefined; packageId: string },
): Promise<TOrderResponse> {
  const { db, provider } = ctx;
  const user = requireUser(caller);
  if (!(await bookingsRepo.isVerifiedAccount(db, user.id))) throw new AppError('EMAIL_NOT_VERIFIED', BOOKING_MSG.verifyToBook);
  const pkg = isId(packageId) ? await repo.findLivePackage(db, packageId) : undefined;
  if (!pkg) throw new AppError('NOT_FOUND', PACKAGE_MSG.notFound);
  const trainer = await ctx.availability.findBookableTrainer(pkg.trainerId);
  if (!trainer) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
  const open = await repo.openBalanceOf(db, user.id, pkg.trainerId);
  if (open) {
    const left = (await balances(db, [account.balance(open.id)])).get(account.balance(open.id)) ?? 0;
    if (open.sessionsLeft > 0 || left > 0 || open.status === 'refunding') throw new AppError('CONFLICT', PACKAGE_MSG.haveBalance);
    await repo.setBalanceState(db, open.id, { status: 'closed' });
  }
  const amount = { currency_code: CURRENCY, value: centsToDecimalString(pkg.priceCents) };
  const at = ctx.now();
  const pending = await repo.findPendingPurchase(db, user.id, pkg.id, new Date(at.getTime() - ORDER_REUSE_MS));
  if (pending?.providerOrderId) return { id: pending.providerOrderId, status: 'CREATED', amount };

  const id = await db.transaction((tx) => repo.insertPurchase(tx, { userId: user.id, pkg, currency: CURRENCY, now: at }));
  const names = await repo.trainerNameOf(db, pkg.trainerId);
  const order = await provider.createOrder({
    requestId: `spotter-package-${id}`,
    amountCents: pkg.priceCents,
    currency: CURRENCY,
    description: `Spotter: ${pkg.sessions} sessions with ${plainName(names ?? 'your trainer')}`,
    referenceId: id,
  });
  await repo.attachPurchaseOrder(db, id, provider.name, order.id);
  return { id: order.id, status: order.status, amount };
}

function captureAnswer(orderId: string, row: repo.BalanceRow, balance: TBalance | undefined): TCaptureResponse {
  return {
    id: orderId,
    status: 'COMPLETED',
    purchase_units: [
      {
        reference_id: row.id,
        payments: {
          captures: row.captureId
            ? [
                {
                  id: row.captureId,
                  status: 'COMPLETED',
                  amount: { currency_code: row.currency, value: centsToDecimalString(row.priceCents) },
                },
              ]
            : [],
        },
      },
    ],
    ...(balance ? { balance } : {}),
  };
}

/** Adds whole months in UTC (the 31st of a shorter month is its last day). */
function addMonths(d: Date, months: number): Date {
  const out = new Date(d);
  const day = out.getUTCDate();
  out.setUTCDate(1);
  out.setUTCMonth(out.getUTCMonth() + months);
  const last = new Date(Date.UTC(out.getUTCFullYear(), out.getUTCMonth() + 1, 0)).getUTCDate();
  out.setUTCDate(Math.min(day, last));
  return out;
}

/**
 * A purchase's capture that cannot buy what it was for (another amount or currency than its own, or
 * a second package of a trainer) is recorded once in the order's suspense account and refunded in
 * full at once; the purchase is closed.
 */
export async function refundWholePurchase(
  ctx: BookingsContext,
  row: repo.BalanceRow,
  {
    orderId,
    capture,
    via,
    amountCents,
    currency,
    why,
  }: {
    orderId: string;
    capture: NonNullable<ProviderCapture['capture']>;
    via: 'capture' | 'check' | 'webhook';
    amountCents: number | undefined;
    currency: string;
    why?: string;
  },
): Promise<void> {
  const p = providerOf(ctx, row.provider);
  const captureKey = `capture:${p.name}:${capture.id}`;
  const at = ctx.now();
  if (!why)
    ctx.log.error(
      { orderId, captured: capture.amountCents, currency, expected: row.priceCents },
      'purchase capture differs: refunding it',
    );
  const unplaced = amountCents ?? 0;
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockBalance(tx, row.id);
    if (!locked || locked.status !== 'pending') return;
    if (unplaced > 0)
      await post(tx, {
        key: captureKey,
        kind: 'unplaced',
        userId: row.userId,
        trainerId: row.trainerId,
        provider: p.name,
        providerOrderId: orderId,
        memo: `captured amount or currency differs from the ${row.kind}`,
        at,
        entries: [
          { account: account.world(p.name), amountCents: -unplaced, currency },
          { account: account.suspense(p.name, orderId), amountCents: unplaced, currency },
        ],
      });
    await paymentsRepo.recordPaymentEvent(tx, {
      kind: 'capture-mismatch',
      bookingId: null,
      provider: p.name,
      providerOrderId: orderId,
      details: {
        via,
        captureId: capture.id,
        captured: capture.amountCents ?? null,
        currency,
        expected: row.priceCents,
        balanceId: row.id,
        ...(why ? { why } : {}),
      },
      at,
    });
    await repo.setBalanceState(tx, row.id, { status: 'closed' });
  });
  if (unplaced > 0)
    await refundUnplaced(
      ctx,
      { provider: p.name, orderId, captureId: capture.id, amountCents: unplaced, currency, bookingId: null },
      `captured amount or currency differs from the ${row.kind}`,
    ).catch((err) => ctx.log.error({ err, orderId }, 'refund of a mismatched purchase capture failed; its job retries'));
}

/**
 * A package's capture the provider completed, from the capture call or the reconciliation job,
 * recorded once: for the package's own amount and currency, the money goes to the user's balance
 * with the trainer (`package`: world → balance) and the balance becomes active; otherwise it goes
 * to the order's suspense account and is refunded in full at once.
 */
async function settlePackage(
  ctx: BookingsContext,
  row: repo.BalanceRow,
  { orderId, result, via }: { orderId: string; result: ProviderCapture; via: 'capture' | 'check' | 'webhook' },
): Promise<'paid' | 'mismatch' | 'another-open'> {
  const p = providerOf(ctx, row.provider);
  const capture = result.capture!;
  const captureKey = `capture:${p.name}:${capture.id}`;
  const currency = capture.currency ?? row.currency;
  const amountCents = capture.amountCents ?? (p.name === 'demo' ? row.priceCents : undefined);
  const at = ctx.now();
  // one package at a time per trainer: two orders paid at once (or one paid while another was bought)
  // buy one; the other's money is refunded in full
  const another = await ctx.db.transaction(async (tx) => {
    await bookingsRepo.lockAccount(tx, row.userId);
    const open = await repo.openBalanceOf(tx, row.userId, row.trainerId);
    return !!open && open.id !== row.id;
  });
  if (another || amountCents === undefined || amountCents !== row.priceCents || currency !== row.currency) {
    if (another) ctx.log.warn({ orderId, balanceId: row.id }, 'a second package of the same trainer paid: refunding it');
    await refundWholePurchase(ctx, row, {
      orderId,
      capture,
      via,
      amountCents,
      currency,
      why: another ? 'another package of this trainer is open' : undefined,
    });
    return another ? 'another-open' : 'mismatch';
  }
  const settled = await ctx.db.transaction(async (tx) => {
    // the user's purchases settle one at a time: a concurrent one sees this one open
    await bookingsRepo.lockAccount(tx, row.userId);
    const locked = await repo.lockBalance(tx, row.id);
    if (!locked || locked.status !== 'pending') return true;
    const open = await repo.openBalanceOf(tx, row.userId, row.trainerId);
    if (open && open.id !== row.id) return false;
    await post(tx, {
      key: captureKey,
      kind: 'package',
      userId: row.userId,
      trainerId: row.trainerId,
      provider: p.name,
      providerOrderId: orderId,
      memo: `${row.sessions} sessions`,
      at,
      entries: [
        { account: account.world(p.name), amountCents: -amountCents, currency },
        { account: account.balance(row.id), amountCents, currency },
      ],
    });
    const expiresAt = row.validityMonths ? addMonths(at, row.validityMonths) : null;
    await repo.settleBalance(tx, row.id, { captureId: capture.id, paidAt: at, expiresAt, sessions: row.sessions });
    if (expiresAt) {
      const remindAt = new Date(expiresAt.getTime() - PACKAGE_RULES.remindDaysBefore * DAY);
      if (remindAt > at)
        await ctx.jobs.enqueue(tx, { kind: PACKAGE_JOBS.remind, runAt: remindAt, payload: { balanceId: row.id } });
      await ctx.jobs.enqueue(tx, { kind: PACKAGE_JOBS.expire, runAt: expiresAt, payload: { balanceId: row.id } });
    }
    await paymentsRepo.recordPaymentEvent(tx, {
      kind: 'capture-settled',
      bookingId: null,
      provider: p.name,
      providerOrderId: orderId,
      details: { via, outcome: 'package', balanceId: row.id, captureId: capture.id },
      at,
    });
    return true;
  });
  // another became open between the check and here: refunded like any second package
  if (!settled) return settlePackage(ctx, row, { orderId, result, via });
  return 'paid';
}

/**
 * Captures the caller's package order (capture-order.ts hands it over when no booking has that
 * order): a second capture answers the balance as it is now and charges nothing; an outcome not
 * known is recorded and reconciled by the job (docs/decisions/042-money-ledger.md#unknown-outcomes).
 */
export async function capturePackageOrder(
  ctx: BookingsContext,
  { user, row, orderId }: { user: Caller; row: repo.BalanceRow; orderId: string },
): Promise<TCaptureResponse> {
  if (row.userId !== user.id) throw new AppError('FORBIDDEN', PAYMENT_MSG.orderNotFound);
  if (row.status !== 'pending') return captureAnswer(orderId, row, await balanceView(ctx, user.id, row.id));
  const captured = await capturePurchase(ctx, { id: row.id, provider: row.provider, details: { balanceId: row.id } }, orderId);
  if ('answer' in captured) return captured.answer;
  const result = captured.completed;
  const outcome = await settlePackage(ctx, row, { orderId, result, via: 'capture' });
  if (outcome === 'mismatch') throw new AppError('PAYMENT_MISMATCH', PAYMENT_MSG.amountMismatch);
  if (outcome === 'another-open') throw new AppError('CONFLICT', PACKAGE_MSG.secondRefunded);
  const fresh = (await repo.findBalance(ctx.db, row.id))!;
  return captureAnswer(orderId, fresh, await balanceView(ctx, user.id, row.id));
}

/** The reconciliation job's part for a package order (capture-order.ts `checkOrder`). */
export async function checkPackageOrder(
  ctx: BookingsContext,
  row: repo.BalanceRow,
  { provider, orderId }: { provider: 'paypal' | 'demo'; orderId: string },
) {
  if (row.status !== 'pending') return;
  await checkProviderOrder(ctx, { provider, orderId, bookingId: null, details: { balanceId: row.id } }, (result) =>
    settlePackage(ctx, row, { orderId, via: 'check', result }),
  );
}

/**
 * Refunds what is left of the caller's balance with a trainer through the provider that took it
 * (docs/product.md#packages): everything not taken by a session booked, so at the per-session price
 * they paid. The balance stops paying for sessions at once; a provider that does not answer leaves
 * the refund to its job (the answer says it is under way).
 */
export async function refundRest(
  ctx: BookingsContext,
  { caller, trainerId }: { caller: Caller | undefined; trainerId: string },
): Promise<{ message: string; refundedAmount: number }> {
  const user = requireUser(caller);
  const open = isId(trainerId) ? await repo.openBalanceOf(ctx.db, user.id, trainerId) : undefined;
  if (!open) throw new AppError('NOT_FOUND', PACKAGE_MSG.noBalance);
  if (open.status === 'refunding') throw new AppError('CONFLICT', PACKAGE_MSG.refundInProgress);
  let cents = 0;
  let refused: AppError | undefined;
  let outcome;
  try {
    outcome = await refundBalance(
      ctx,
      {
        id: open.id,
        provider: open.provider!,
        orderId: open.providerOrderId!,
        captureId: open.captureId!,
        currency: open.currency,
      },
      async (tx) => {
        const locked = await repo.lockBalance(tx, open.id);
        if (!locked || locked.status !== 'active') throw (refused = new AppError('CONFLICT', PACKAGE_MSG.refundInProgress));
        cents = await balance(tx, account.balance(open.id), open.currency);
        if (cents <= 0) throw (refused = new AppError('CONFLICT', PACKAGE_MSG.nothingToRefund));
        await repo.setBalanceState(tx, open.id, { status: 'refunding', sessionsLeft: 0 });
        return cents;
      },
    );
  } catch (err) {
    if (refused) throw refused;
    // the refund is written and its job asks the provider again: under way, not failed
    if (err instanceof ProviderUnavailableError) return { message: PACKAGE_MSG.refundStarted, refundedAmount: fromCents(cents) };
    throw err;
  }
  return {
    message: outcome.state === 'completed' ? PACKAGE_MSG.refunded(`$${fromCents(cents).toFixed(2)}`) : PACKAGE_MSG.refundStarted,
    refundedAmount: fromCents(cents),
  };
}

/**
 * Refunds everything in a balance's account through the provider: every balance of a trainer who
 * leaves (cancel-account-sessions.ts), and a closed balance (refunded, expired) that a cancelled
 * session's part went back to (book-from-balance.ts). An empty one is closed.
 */
export async function refundWholeBalance(ctx: BookingsContext, balanceId: string): Promise<void> {
  const open = await repo.findBalance(ctx.db, balanceId);
  if (!open || (open.status !== 'active' && open.status !== 'closed')) return;
  if (!open.provider || !open.providerOrderId || !open.captureId) return;
  await refundBalance(
    ctx,
    {
      id: open.id,
      kind: open.kind,
      provider: open.provider,
      orderId: open.providerOrderId,
      captureId: open.captureId,
      currency: open.currency,
    },
    async (tx) => {
      const locked = await repo.lockBalance(tx, open.id);
      if (!locked || (locked.status !== 'active' && locked.status !== 'closed')) return 0;
      const cents = await balance(tx, account.balance(open.id), open.currency);
      await repo.setBalanceState(
        tx,
        open.id,
        cents > 0 ? { status: 'refunding', sessionsLeft: 0 } : { status: 'closed', sessionsLeft: 0 },
      );
      return cents;
    },
  );
}

/**
 * A balance reaches its end date (the date shown when it was bought; docs/product.md#packages):
 * what is left goes to the trainer, payable at once, less Spotter's fee (`expire`), and it pays for
 * no more sessions. Sessions booked from it before stay booked. Once, whatever retries happen.
 */
export async function expireBalance(ctx: BookingsContext, balanceId: string, at: Date): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const open = await repo.lockBalance(tx, balanceId);
    if (!open || open.status !== 'active' || !open.expiresAt || open.expiresAt > at) return;
    const left = await balance(tx, account.balance(open.id), open.currency);
    if (left > 0) {
      const fee = percentOf(left, PLATFORM_FEE_PERCENT);
      await post(tx, {
        key: `expire:${open.id}`,
        kind: 'expire',
        userId: open.userId,
        trainerId: open.trainerId,
        provider: open.provider,
        providerOrderId: open.providerOrderId,
        memo: `a package's ${open.sessionsLeft} unused session(s) expired`,
        at,
        entries: [
          { account: account.balance(open.id), amountCents: -left, currency: open.currency },
          { account: account.trainerPayable(open.trainerId), amountCents: left - fee, currency: open.currency },
          { account: account.fees, amountCents: fee, currency: open.currency },
        ],
      });
    }
    await repo.setBalanceState(tx, open.id, { status: 'closed', sessionsLeft: 0 });
  });
}
