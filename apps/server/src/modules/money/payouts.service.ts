import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { PAYOUT_MSG, POLICY_V1, type TPayout, type TPayoutAddressResponse, type TPayoutsResponse } from '@spotter/shared';
import type { Db } from '../../db/client';
import { fromCents } from '../../lib/money';
import type { JobRunner } from '../../platform/jobs';
import type { PushNotify } from '../push';
import type { Mailer } from '../mail';
import { account, LedgerError, post } from './ledger.repo';
import { MONEY_JOBS, RUN_NOW_CLAIM_MS } from './money-jobs';
import {
  PaymentRejectedError,
  type PaymentProvider,
  type ProviderName,
  type ProviderPayoutBatch,
} from './providers/payment-provider';
import * as repo from './payouts.repo';

/**
 * A share becomes payable once its session's dispute window closed: the hours of the policy frozen
 * on the booking, these for a session booked before policies were
 * (docs/decisions/050-payable-after-the-dispute-window.md).
 */
const DEFAULT_DISPUTE_HOURS = POLICY_V1.disputeHours;

/** Item states after which the provider moves no more money: paid, or back with Spotter. */
const PAID = new Set(['SUCCESS']);
/**
 * Back in the payable balance. An UNCLAIMED item (no PayPal account for that address) is taken back
 * first (`takeBack`), then it is RETURNED; PayPal would return it by itself only after 30 days.
 */
const RETURNED = new Set(['RETURNED', 'FAILED', 'BLOCKED', 'REFUNDED', 'REVERSED', 'DENIED']);

type PayoutsDeps = {
  db: Db;
  jobs: JobRunner;
  log: FastifyBaseLogger;
  mailer: Mailer;
  publicUrl: string;
  /** The provider new payouts go through. */
  provider: PaymentProvider;
  /** Every provider a payout may have gone through (one sent before a configuration change). */
  providers: Partial<Record<ProviderName, PaymentProvider>>;
  /** Told of each batch the provider refused (`spotter_payout_batches_refused_total` in /api/metrics). */
  countRefusedBatch?: () => void;
  /** The push module's: 'payout sent' to the trainer's devices (docs/product.md#notifications). */
  notify?: PushNotify;
};

/** The provider status a payout gets when its whole batch was refused: nothing was created there. */
const REFUSED = 'REFUSED';
/** Refusals that say "not now" rather than "no": the batch is sent again with its key. */
const TRY_AGAIN = new Set([409, 429]);

function toPayout(row: repo.PayoutRow): TPayout {
  return {
    _id: row.id,
    amount: fromCents(row.amountCents),
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    sessions: row.bookingIds.length,
    email: row.email,
    ...(row.status === 'returned' && row.providerStatus === REFUSED ? { refused: true } : {}),
  };
}

/**
 * Trainers paid out (docs/decisions/042-money-ledger.md#payouts): the payout address, the payout
 * history, and the jobs' work: shares due become payable, payable balances are paid in batches
 * (written before the provider is called, sent again with the same batch key until it answers),
 * and each payout is settled from the provider's answer: paid, or back in the payable balance.
 */
export function createPayoutsService({
  db,
  jobs,
  log,
  mailer,
  publicUrl,
  provider,
  providers,
  countRefusedBatch,
  notify,
}: PayoutsDeps) {
  async function payoutAddress(trainerId: string): Promise<TPayoutAddressResponse> {
    return { email: (await repo.payoutEmailOf(db, trainerId)) ?? null };
  }

  async function setPayoutAddress(trainerId: string, email: string): Promise<TPayoutAddressResponse> {
    const before = await repo.payoutEmailOf(db, trainerId);
    await repo.setPayoutEmail(db, trainerId, email);
    // where earnings go changed: the account's own address is told, so a taken-over account is noticed
    if (before !== email)
      await mailTrainer(trainerId, {
        subject: 'Your payout address was changed',
        lines: [`${PAYOUT_MSG.addressChanged} ${email}.`, PAYOUT_MSG.addressChangedNotYou],
      }).catch((err) => log.error({ err, trainerId }, 'payout address mail failed'));
    return { email, message: PAYOUT_MSG.addressSaved };
  }

  async function listPayouts(trainerId: string): Promise<TPayoutsResponse> {
    return { payouts: (await repo.payoutsOf(db, trainerId)).map(toPayout) };
  }

  /**
   * Every share whose session's dispute window closed by `at`, with no dispute open, moves from
   * pending to payable, once each (docs/decisions/050-payable-after-the-dispute-window.md).
   */
  async function makeDueSharesPayable(at: Date): Promise<number> {
    let moved = 0;
    for (;;) {
      const due = await repo.dueShares(db, at, DEFAULT_DISPUTE_HOURS);
      let wrote = 0;
      for (const share of due) {
        try {
          const posted = await db.transaction(async (tx) => {
            // what is left of the share now: a refund made at the provider may have taken part of it
            // since it was read (outside-refund.ts takes the same lock before it reads where it is)
            await repo.lockShare(tx, share.bookingId);
            // and a dispute opened since it was read: openDispute inserts it under the same lock
            if (!(await repo.stillDueAfterDisputes(tx, share.bookingId, at, DEFAULT_DISPUTE_HOURS))) return false;
            const cents = await repo.pendingShareOf(tx, share);
            if (cents <= 0) return false;
            return post(tx, {
              key: `payable:${share.bookingId}`,
              kind: 'payable',
              bookingId: share.bookingId,
              trainerId: share.trainerId,
              entries: [
                { account: account.trainerPending(share.trainerId), amountCents: -cents, currency: share.currency },
                { account: account.trainerPayable(share.trainerId), amountCents: cents, currency: share.currency },
              ],
              at,
            });
          });
          if (posted) wrote++;
        } catch (err) {
          // e.g. a refund took the pending share first: left alone, logged, the others go on
          if (!(err instanceof LedgerError)) throw err;
          log.error({ err, bookingId: share.bookingId }, 'a due share could not be made payable');
        }
      }
      moved += wrote;
      if (!due.length || !wrote) return moved;
    }
  }

  /**
   * Writes one batch: a `payouts` row per trainer (and currency) with a payable balance and an
   * address, and its ledger `payout` transaction (payable → paying), in one database transaction,
   * before the provider hears of it. Answers the batch key, or undefined when nobody is due.
   */
  async function writePayoutBatch(at: Date): Promise<string | undefined> {
    const batchKey = `spotter-payouts-${randomUUID()}`;
    const written = await db.transaction(async (tx) => {
      await repo.lockPayoutBatching(tx);
      let count = 0;
      for (const due of await repo.payableTrainers(tx)) {
        const bookingIds = await repo.unpaidPayableBookings(tx, due.trainerId);
        const row = await repo.insertPayout(tx, {
          trainerId: due.trainerId,
          email: due.email,
          provider: provider.name,
          amountCents: due.amountCents,
          currency: due.currency,
          status: 'pending',
          bookingIds,
          batchKey,
          createdAt: at,
          updatedAt: at,
        });
        await post(tx, {
          key: `payout:${row.id}`,
          kind: 'payout',
          trainerId: due.trainerId,
          payoutId: row.id,
          provider: provider.name,
          entries: [
            { account: account.trainerPayable(due.trainerId), amountCents: -due.amountCents, currency: due.currency },
            { account: account.trainerPaying(due.trainerId), amountCents: due.amountCents, currency: due.currency },
          ],
          at,
        });
        count++;
      }
      return count;
    });
    return written ? batchKey : undefined;
  }

  /**
   * Sends a written batch to its provider with its key as `sender_batch_id`: a retry after a
   * timeout or a 5xx sends the same key, and the provider pays it once. A failure leaves the
   * payouts pending for the next sweep (and is thrown). A batch the provider refuses (a 4xx, e.g.
   * PayPal's INSUFFICIENT_FUNDS: nothing was created there) goes back to the payable balances.
   */
  async function sendBatch(batchKey: string, at: Date): Promise<void> {
    const rows = await repo.payoutsOfBatch(db, batchKey);
    if (!rows.some((r) => r.status === 'pending')) return;
    const via = providers[rows[0].provider];
    if (!via) throw new Error(`payout batch ${batchKey}: provider ${rows[0].provider} is not configured`);
    let batch: ProviderPayoutBatch;
    try {
      batch = await via.createPayoutBatch({
        senderBatchId: batchKey,
        items: rows.map((r) => ({
          senderItemId: r.id,
          email: r.email,
          amountCents: r.amountCents,
          currency: r.currency,
          note: 'Your Spotter earnings',
        })),
      });
    } catch (err) {
      if (!(err instanceof PaymentRejectedError) || TRY_AGAIN.has(err.statusCode)) throw err;
      await refuseBatch(batchKey, rows, err, at);
      return;
    }
    for (const r of rows) {
      const item = batch.items.find((i) => i.senderItemId === r.id);
      await repo.markSent(db, r.id, {
        providerBatchId: batch.batchId,
        providerItemId: item?.itemId ?? null,
        providerStatus: item?.status ?? batch.status,
        at,
      });
    }
    await settleFrom(batch, rows, at);
  }

  /**
   * The provider refused the whole batch: each payout goes back to its trainer's payable balance
   * (paid with the next batch, under a new key), the trainer is told it is late, and operators
   * see it in the log, the payment events and the metrics.
   */
  async function refuseBatch(batchKey: string, rows: repo.PayoutRow[], err: PaymentRejectedError, at: Date) {
    const issue = err.details?.[0]?.issue ?? err.providerName ?? `HTTP ${err.statusCode}`;
    log.error(
      { batchKey, payouts: rows.length, status: err.statusCode, issue, debugId: err.debugId },
      'the payment provider refused a payout batch: its payouts are back in the payable balances',
    );
    await repo.recordPayoutEvent(db, {
      kind: 'payout-refused',
      provider: rows[0].provider,
      details: { batchKey, payouts: rows.map((r) => r.id), status: err.statusCode, issue, message: err.message },
      at,
    });
    countRefusedBatch?.();
    for (const row of rows)
      if (row.status === 'pending') await settleOne(row, 'returned', { senderItemId: row.id, status: REFUSED }, at);
  }

  /** Settles each payout of the batch whose item the provider reports final. */
  async function settleFrom(batch: ProviderPayoutBatch, rows: repo.PayoutRow[], at: Date): Promise<void> {
    for (let item of batch.items) {
      const row = rows.find((r) => r.id === item.senderItemId);
      if (!row) continue;
      let status = item.status.toUpperCase();
      // an unclaimed item is taken back first, so paying the share again cannot pay it twice (the
      // recipient could still claim it for 30 days): only a RETURNED answer lets it go back
      if (status === 'UNCLAIMED') {
        const taken = item.itemId ? await takeBack(row, item.itemId) : undefined;
        if (!taken) {
          if (row.providerStatus !== status) await repo.noteProviderStatus(db, row.id, status, at);
          continue;
        }
        status = taken;
        item = { ...item, status: taken };
      }
      if (PAID.has(status)) await settleOne(row, 'paid', item, at);
      else if (RETURNED.has(status)) await settleOne(row, 'returned', item, at);
      else if (status !== row.providerStatus) await repo.noteProviderStatus(db, row.id, status, at);
    }
  }

  /** Cancels an unclaimed item at the provider: its status then (RETURNED), or undefined when it could not (asked again next sweep). */
  async function takeBack(row: repo.PayoutRow, itemId: string): Promise<string | undefined> {
    try {
      const via = providers[row.provider];
      if (!via) return undefined;
      const answer = await via.cancelPayoutItem({ itemId });
      return answer.status.toUpperCase() === 'RETURNED' ? 'RETURNED' : undefined;
    } catch (err) {
      // claimed meanwhile (refused), or the provider did not answer: the next read of the batch says
      log.warn({ err, payoutId: row.id }, 'an unclaimed payout could not be taken back yet');
      return undefined;
    }
  }

  async function settleOne(
    row: repo.PayoutRow,
    outcome: 'paid' | 'returned',
    item: ProviderPayoutBatch['items'][number],
    at: Date,
  ): Promise<void> {
    const mailJob = await db.transaction(async (tx) => {
      const changed = await repo.settle(tx, row.id, {
        status: outcome,
        providerItemId: item.itemId ?? row.providerItemId,
        providerStatus: item.status,
        at,
      });
      if (!changed) return undefined;
      const paying = account.trainerPaying(row.trainerId);
      await post(tx, {
        key: `${outcome === 'paid' ? 'payout-paid' : 'payout-returned'}:${row.id}`,
        kind: outcome === 'paid' ? 'payout-paid' : 'payout-returned',
        trainerId: row.trainerId,
        payoutId: row.id,
        provider: row.provider,
        entries: [
          { account: paying, amountCents: -row.amountCents, currency: row.currency },
          {
            account: outcome === 'paid' ? account.world(row.provider) : account.trainerPayable(row.trainerId),
            amountCents: row.amountCents,
            currency: row.currency,
          },
        ],
        memo: item.status,
        at,
      });
      if (outcome === 'paid') {
        await notify?.(tx, row.trainerId, {
          kind: 'payout',
          title: 'Payout sent',
          body: `$${fromCents(row.amountCents).toFixed(2)} (${row.currency}) is in your PayPal account ${row.email}`,
          url: '/trainer/payments',
          tag: `payout-${row.id}`,
        });
        return undefined;
      }
      // a session of it reversed meanwhile (a chargeback) was booked as Spotter's loss, as its share
      // was at the provider: back, that share is taken from the trainer again, not paid a second time
      for (const bookingId of row.bookingIds) {
        const lost = await repo.lostOnBooking(tx, bookingId, row.currency);
        if (lost > 0)
          await post(tx, {
            key: `recovered:${bookingId}:${row.id}`,
            kind: 'reversal',
            bookingId,
            trainerId: row.trainerId,
            payoutId: row.id,
            memo: 'a reversed session’s share, back from its payout',
            entries: [
              { account: account.trainerPayable(row.trainerId), amountCents: -lost, currency: row.currency },
              { account: account.losses, amountCents: lost, currency: row.currency },
            ],
            at,
          });
      }
      return jobs.enqueue(tx, {
        kind: MONEY_JOBS.returnedMail,
        runAt: at,
        payload: { payoutId: row.id },
        claimFor: RUN_NOW_CLAIM_MS,
      });
    });
    if (mailJob !== undefined)
      await jobs.runClaimed(mailJob).catch((err) => log.error({ err, job: mailJob }, 'payout mail failed'));
  }

  /** Payouts written and never taken by the provider are sent again, each batch with its own key. */
  async function retryPendingBatches(at: Date): Promise<void> {
    for (const batchKey of await repo.pendingBatchKeys(db)) {
      await sendBatch(batchKey, at).catch((err) => log.warn({ err, batchKey }, 'payout batch not sent; will retry'));
    }
  }

  /** Asks the provider about every batch with a payout it has not settled yet. */
  async function settleSentBatches(at: Date): Promise<void> {
    for (const { provider: name, providerBatchId } of await repo.sentBatches(db)) {
      const via = providers[name];
      if (!via) {
        log.error({ providerBatchId, provider: name }, 'payout batch of a provider that is not configured');
        continue;
      }
      try {
        const batch = await via.getPayoutBatch({ batchId: providerBatchId });
        await settleFrom(batch, await repo.payoutsOfProviderBatch(db, providerBatchId), at);
      } catch (err) {
        log.warn({ err, providerBatchId }, 'payout batch not settled; will ask again');
      }
    }
  }

  async function sendReturnedMail(payoutId: string): Promise<void> {
    const row = await repo.findPayout(db, payoutId);
    if (!row || row.status !== 'returned') return;
    const amount = `$${fromCents(row.amountCents).toFixed(2)}`;
    if (row.providerStatus === REFUSED)
      return mailTrainer(row.trainerId, {
        subject: 'Your payout is delayed',
        lines: [PAYOUT_MSG.refused, `Amount: ${amount} (${row.currency}), to ${row.email}.`],
      });
    await mailTrainer(row.trainerId, {
      subject: 'A payout could not be delivered',
      lines: [PAYOUT_MSG.returned, `Amount: ${amount} (${row.currency}), sent to ${row.email}.`],
    });
  }

  /** A mail to the trainer's own account (never the payout address), with a link to the payout settings. */
  async function mailTrainer(trainerId: string, { subject, lines }: { subject: string; lines: string[] }): Promise<void> {
    const to = await repo.trainerContact(db, trainerId);
    if (!to || to.deletedAt) return;
    const link = `${publicUrl}/trainer/settings`;
    const text = [
      `Hi ${to.firstName.replace(/[\p{Cc}\u2028\u2029]/gu, ' ').trim() || 'there'},`,
      '',
      ...lines,
      '',
      `Your payout address: ${link}`,
    ].join('\n');
    const escape = (v: string) =>
      v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
    const html = text
      .split('\n')
      .map((l) =>
        l === `Your payout address: ${link}` ? `<p><a href="${link}">Your payout address</a></p>` : `<p>${escape(l)}</p>`,
      )
      .join('');
    await mailer.send({ to: to.email, subject, text, html, links: [link] });
  }

  return {
    payoutAddress,
    setPayoutAddress,
    listPayouts,
    makeDueSharesPayable,
    writePayoutBatch,
    sendBatch,
    retryPendingBatches,
    settleSentBatches,
    sendReturnedMail,
  };
}
export type PayoutsService = ReturnType<typeof createPayoutsService>;
