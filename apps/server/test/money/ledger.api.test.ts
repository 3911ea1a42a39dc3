import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  account,
  balance,
  balances,
  LedgerError,
  post,
  type LedgerKind,
  type Posting,
} from '../../src/modules/money/ledger.repo';
import { useTestApp } from '../helper';

// The ledger's own guarantees (docs/decisions/042-money-ledger.md#accounts-and-transactions): post()
// and the database's guards of migration 0015, on PGlite and on PostgreSQL (TEST_DATABASE_URL).
const t = await useTestApp();
const db = t.database.db;

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** post() in a transaction of its own. */
const write = (tr: Parameters<typeof post>[1]) => db.transaction((tx) => post(tx, tr));

/** A payment of `amount` (fee `fee`) from `world:<provider>` to a trainer: what a capture writes. */
function payment(
  provider: string,
  trainerId: string,
  amount: number,
  fee = 0,
  currency = 'USD',
  key = `capture:${randomUUID()}`,
) {
  return write({
    key,
    kind: 'payment',
    trainerId,
    provider,
    providerOrderId: key,
    entries: [
      { account: account.world(provider), amountCents: -amount, currency },
      { account: account.trainerPending(trainerId), amountCents: amount - fee, currency },
      { account: account.fees, amountCents: fee, currency },
    ],
  });
}

/** What a failed statement said: Drizzle wraps the database's error ('Failed query: …') as its cause. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : (err as Error).message;
  }
  return 'not refused';
}

/** Transactions of the whole ledger whose entries do not sum to zero in some currency. */
async function unbalanced() {
  return rows<{ key: string; currency: string; total: string }>(
    await db.execute(sql`
      select t.key, e.currency, sum(e.amount_cents)::text as total
      from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
      group by t.key, e.currency having sum(e.amount_cents) <> 0`),
  );
}

/** Accounts other than `world:*` below zero. */
async function negative() {
  return rows<{ account: string; currency: string; total: string }>(
    await db.execute(sql`
      select account, currency, sum(amount_cents)::text as total from ledger_entries
      where account not like 'world:%' group by account, currency having sum(amount_cents) < 0`),
  );
}

describe('post()', () => {
  it('writes a balanced transaction; balances are the sums of entries', async () => {
    const provider = `p${randomUUID().slice(0, 8)}`;
    const trainer = randomUUID();
    expect(await payment(provider, trainer, 15000, 1500)).toBe(true);
    expect(await payment(provider, trainer, 20000, 2000)).toBe(true);
    expect(await balance(db, account.world(provider))).toBe(-35000);
    expect(await balance(db, account.trainerPending(trainer))).toBe(13500 + 18000);
    expect(await balance(db, account.trainerPending(trainer), 'EUR')).toBe(0);
    const stored = rows<{ n: number }>(
      await db.execute(sql`
        select count(*)::int as n from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where t.provider = ${provider}`),
    );
    expect(stored[0].n).toBe(6);
  });

  it('writes a key once: the same key again answers false and writes nothing', async () => {
    const provider = `p${randomUUID().slice(0, 8)}`;
    const trainer = randomUUID();
    const key = `capture:${provider}:C1`;
    expect(await payment(provider, trainer, 15000, 0, 'USD', key)).toBe(true);
    // a retried capture with another amount: still nothing written
    expect(await payment(provider, trainer, 99999, 0, 'USD', key)).toBe(false);
    expect(await balance(db, account.trainerPending(trainer))).toBe(15000);
    const stored = rows<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from ledger_transactions where key = ${key}`),
    );
    expect(stored[0].n).toBe(1);
  });

  it('refuses an unbalanced transaction, one in two currencies that balances only in sum, whole cents and ISO codes', async () => {
    const trainer = randomUUID();
    const key = `bad:${randomUUID()}`;
    const attempt = (entries: Posting[]) => write({ key, kind: 'payment', entries });
    await expect(
      attempt([
        { account: account.world('paypal'), amountCents: -15000, currency: 'USD' },
        { account: account.trainerPending(trainer), amountCents: 14999, currency: 'USD' },
      ]),
    ).rejects.toThrow(LedgerError);
    await expect(
      attempt([
        { account: account.world('paypal'), amountCents: -15000, currency: 'JPY' },
        { account: account.trainerPending(trainer), amountCents: 15000, currency: 'USD' },
      ]),
    ).rejects.toThrow(/does not balance/);
    await expect(
      attempt([
        { account: account.world('paypal'), amountCents: -0.5, currency: 'USD' },
        { account: account.trainerPending(trainer), amountCents: 0.5, currency: 'USD' },
      ]),
    ).rejects.toThrow(/whole cents/);
    await expect(
      attempt([
        { account: account.world('paypal'), amountCents: -100, currency: 'usd' },
        { account: account.trainerPending(trainer), amountCents: 100, currency: 'usd' },
      ]),
    ).rejects.toThrow(/ISO/);
    await expect(attempt([])).rejects.toThrow(/moves nothing/);
    const stored = rows<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from ledger_transactions where key = ${key}`),
    );
    expect(stored[0].n).toBe(0);
  });

  it('refuses to take an account other than world:* below zero, and writes nothing of it', async () => {
    const provider = `p${randomUUID().slice(0, 8)}`;
    const trainer = randomUUID();
    await payment(provider, trainer, 10000);
    const key = `refund:${randomUUID()}`;
    await expect(
      write({
        key,
        kind: 'refund',
        entries: [
          { account: account.trainerPending(trainer), amountCents: -10001, currency: 'USD' },
          { account: account.world(provider), amountCents: 10001, currency: 'USD' },
        ],
      }),
    ).rejects.toThrow(/below zero/);
    // a payable move out of an account that never had money
    await expect(
      write({
        key: `payable:${randomUUID()}`,
        kind: 'payable',
        entries: [
          { account: account.trainerPayable(trainer), amountCents: -1, currency: 'USD' },
          { account: account.trainerPaying(trainer), amountCents: 1, currency: 'USD' },
        ],
      }),
    ).rejects.toThrow(LedgerError);
    expect(await balance(db, account.trainerPending(trainer))).toBe(10000);
    const stored = rows<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from ledger_transactions where key = ${key}`),
    );
    expect(stored[0].n).toBe(0);
    // the whole of it can go
    expect(
      await write({
        key,
        kind: 'refund',
        entries: [
          { account: account.trainerPending(trainer), amountCents: -10000, currency: 'USD' },
          { account: account.world(provider), amountCents: 10000, currency: 'USD' },
        ],
      }),
    ).toBe(true);
    expect(await balance(db, account.trainerPending(trainer))).toBe(0);
  });

  it('10 concurrent refunds of 100 from a balance of 300: exactly 3 are written, none goes below zero', async () => {
    const provider = `p${randomUUID().slice(0, 8)}`;
    const trainer = randomUUID();
    await payment(provider, trainer, 300);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        write({
          key: `refund:${provider}:${i}`,
          kind: 'refund',
          trainerId: trainer,
          entries: [
            { account: account.trainerPending(trainer), amountCents: -100, currency: 'USD' },
            { account: account.world(provider), amountCents: 100, currency: 'USD' },
          ],
        }),
      ),
    );
    const written = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(written.map((r) => r.value)).toEqual([true, true, true]);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.reason).toBeInstanceOf(LedgerError);
    expect(await balance(db, account.trainerPending(trainer))).toBe(0);
    expect(await balance(db, account.world(provider))).toBe(0);
    expect(await negative()).toEqual([]);
  });
});

/** A transaction written with plain SQL: -100 USD from world:paypal, and `amount` `currency` to the fees. */
const insertRaw = (key: string, currency: string, amount: number, inserted?: () => void) =>
  db.transaction(async (tx) => {
    const [row] = rows<{ id: string }>(
      await tx.execute(sql`insert into ledger_transactions (key, kind) values (${key}, 'payment') returning id`),
    );
    await tx.execute(sql`
      insert into ledger_entries (transaction_id, account, currency, amount_cents)
      values (${row.id}, 'world:paypal', 'USD', -100), (${row.id}, 'platform:fees', ${currency}, ${amount})`);
    inserted?.();
  });

describe('the database itself', () => {
  it('refuses an unbalanced transaction inserted with plain SQL, at commit', async () => {
    const key = `raw:${randomUUID()}`;
    let accepted = false;
    expect(
      await refusal(
        insertRaw(key, 'USD', 99, () => {
          accepted = true; // the statement itself passes: the check is deferred to the commit
        }),
      ),
    ).toMatch(/does not balance/);
    expect(accepted).toBe(true);
    // balanced in sum, not per currency
    expect(await refusal(insertRaw(key, 'EUR', 100))).toMatch(/does not balance/);
    const stored = rows<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from ledger_transactions where key = ${key}`),
    );
    expect(stored[0].n).toBe(0);
    // entries added later to a balanced transaction, in a transaction of their own
    const provider = `p${randomUUID().slice(0, 8)}`;
    await payment(provider, randomUUID(), 500, 0, 'USD', key);
    expect(
      await refusal(
        db.execute(sql`
          insert into ledger_entries (transaction_id, account, currency, amount_cents)
          select id, 'platform:fees', 'USD', 1 from ledger_transactions where key = ${key}`),
      ),
    ).toMatch(/does not balance/);
    expect(await unbalanced()).toEqual([]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of either ledger table', async () => {
    const provider = `p${randomUUID().slice(0, 8)}`;
    const key = `capture:${provider}:append-only`;
    await payment(provider, randomUUID(), 700, 0, 'USD', key);
    const before = await balance(db, account.world(provider));
    const refused = [
      sql`update ledger_entries set amount_cents = amount_cents * 2 where account = ${account.world(provider)}`,
      sql`delete from ledger_entries where account = ${account.world(provider)}`,
      sql`update ledger_transactions set memo = 'changed' where key = ${key}`,
      sql`delete from ledger_transactions where key = ${key}`,
      sql`truncate ledger_entries`,
      sql`truncate ledger_entries, ledger_transactions`,
      sql`truncate ledger_transactions cascade`,
    ];
    for (const statement of refused) expect(await refusal(db.execute(statement))).toMatch(/the ledger is append-only/);
    expect(await balance(db, account.world(provider))).toBe(before);
    const stored = rows<{ memo: string }>(await db.execute(sql`select memo from ledger_transactions where key = ${key}`));
    expect(stored).toEqual([{ memo: '' }]);
  });
});

// ---- random sequences of ledger operations (fast-check) ----

type Op =
  | { op: 'payment'; trainer: number; order: number; amount: number; fee: number }
  | { op: 'refund'; trainer: number; order: number; amount: number; fee: number }
  | { op: 'payable'; trainer: number; amount: number; n: number }
  | { op: 'payout'; trainer: number; amount: number; payout: number }
  | { op: 'payout-paid'; trainer: number; payout: number }
  | { op: 'payout-returned'; trainer: number; payout: number }
  | { op: 'unplaced'; order: number; amount: number }
  | { op: 'suspense-refund'; order: number; amount: number };

// random cents, and a few amounts that come back often: the same refund key again, a balance taken exactly to zero
const amount = fc.oneof(fc.integer({ min: 1, max: 50_000 }), fc.constantFrom(100, 1500, 15_000));
// small pools of trainers, orders and payouts, so that keys repeat (a retried write) and accounts meet
const trainerIx = fc.integer({ min: 0, max: 2 });
const orderIx = fc.integer({ min: 0, max: 5 });
const payoutIx = fc.integer({ min: 0, max: 3 });
const withFee = (a: number, pct: number) => Math.floor((a * pct) / 100);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc
    .record({ trainer: trainerIx, order: orderIx, amount, pct: fc.integer({ min: 0, max: 30 }) })
    .map(({ pct, ...r }) => ({ op: 'payment' as const, ...r, fee: withFee(r.amount, pct) })),
  fc
    .record({ trainer: trainerIx, order: orderIx, amount, pct: fc.integer({ min: 0, max: 30 }) })
    .map(({ pct, ...r }) => ({ op: 'refund' as const, ...r, fee: withFee(r.amount, pct) })),
  fc.record({ op: fc.constant('payable' as const), trainer: trainerIx, amount, n: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ op: fc.constant('payout' as const), trainer: trainerIx, amount, payout: payoutIx }),
  fc.record({ op: fc.constant('payout-paid' as const), trainer: trainerIx, payout: payoutIx }),
  fc.record({ op: fc.constant('payout-returned' as const), trainer: trainerIx, payout: payoutIx }),
  fc.record({ op: fc.constant('unplaced' as const), order: orderIx, amount }),
  fc.record({ op: fc.constant('suspense-refund' as const), order: orderIx, amount }),
);

// its own currency (ISO 4217's code for tests), so the other tests' USD rows never meet the model's
const CUR = 'XTS';

describe('random sequences of ledger operations', () => {
  it('every transaction balances, no account but world:* goes negative, and every balance is what was moved', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), async (ops) => {
        const run = randomUUID().slice(0, 8);
        const provider = `prop${run}`;
        const trainers = [randomUUID(), randomUUID(), randomUUID()];
        const world = account.world(provider);
        const order = (o: number) => `${run}-O${o}`;
        const payoutId = (p: number) => `${run}-P${p}`;

        // the model: balances as the moves accepted so far make them, keys written, payouts by id
        const model = new Map<string, number>();
        const get = (a: string) => model.get(a) ?? 0;
        const feesBefore = await balance(db, account.fees, CUR); // shared by the runs of this file
        model.set(account.fees, feesBefore);
        const keys = new Set<string>();
        const payouts = new Map<string, { trainer: number; amount: number }>();
        /** Per trainer: shares paid in, shares refunded, paid out. */
        const flows = trainers.map(() => ({ paid: 0, refunded: 0, paidOut: 0 }));

        for (const o of ops) {
          let kind: LedgerKind;
          let key: string;
          let entries: Posting[];
          let after: (() => void) | undefined;
          switch (o.op) {
            case 'payment':
              kind = 'payment';
              key = `capture:${provider}:${order(o.order)}`;
              entries = [
                { account: world, amountCents: -o.amount, currency: CUR },
                { account: account.trainerPending(trainers[o.trainer]), amountCents: o.amount - o.fee, currency: CUR },
                { account: account.fees, amountCents: o.fee, currency: CUR },
              ];
              after = () => (flows[o.trainer].paid += o.amount - o.fee);
              break;
            case 'refund':
              kind = 'refund';
              key = `refund:${provider}:${order(o.order)}:${o.amount}`;
              entries = [
                { account: account.trainerPending(trainers[o.trainer]), amountCents: -(o.amount - o.fee), currency: CUR },
                { account: account.fees, amountCents: -o.fee, currency: CUR },
                { account: world, amountCents: o.amount, currency: CUR },
              ];
              after = () => (flows[o.trainer].refunded += o.amount - o.fee);
              break;
            case 'payable':
              kind = 'payable';
              key = `payable:${run}:${o.trainer}:${o.n}`;
              entries = [
                { account: account.trainerPending(trainers[o.trainer]), amountCents: -o.amount, currency: CUR },
                { account: account.trainerPayable(trainers[o.trainer]), amountCents: o.amount, currency: CUR },
              ];
              break;
            case 'payout':
              kind = 'payout';
              key = `payout:${payoutId(o.payout)}`;
              entries = [
                { account: account.trainerPayable(trainers[o.trainer]), amountCents: -o.amount, currency: CUR },
                { account: account.trainerPaying(trainers[o.trainer]), amountCents: o.amount, currency: CUR },
              ];
              after = () => payouts.set(payoutId(o.payout), { trainer: o.trainer, amount: o.amount });
              break;
            case 'payout-paid':
            case 'payout-returned': {
              const p = payouts.get(payoutId(o.payout));
              if (!p) continue; // nothing sent under that id yet
              const paying = account.trainerPaying(trainers[p.trainer]);
              kind = o.op;
              // one outcome per payout: paid or returned, whichever comes first
              key = `payout-settled:${payoutId(o.payout)}`;
              entries = [
                { account: paying, amountCents: -p.amount, currency: CUR },
                {
                  account: o.op === 'payout-paid' ? world : account.trainerPayable(trainers[p.trainer]),
                  amountCents: p.amount,
                  currency: CUR,
                },
              ];
              if (o.op === 'payout-paid') after = () => (flows[p.trainer].paidOut += p.amount);
              break;
            }
            case 'unplaced':
              kind = 'unplaced';
              key = `unplaced:${provider}:${order(o.order)}`;
              entries = [
                { account: world, amountCents: -o.amount, currency: CUR },
                { account: account.suspense(provider, order(o.order)), amountCents: o.amount, currency: CUR },
              ];
              break;
            case 'suspense-refund':
              kind = 'refund';
              key = `refund:${provider}:${order(o.order)}:suspense:${o.amount}`;
              entries = [
                { account: account.suspense(provider, order(o.order)), amountCents: -o.amount, currency: CUR },
                { account: world, amountCents: o.amount, currency: CUR },
              ];
              break;
          }

          // what the model expects: written once, refused when it takes an account below zero
          const net = new Map<string, number>();
          for (const e of entries) net.set(e.account, (net.get(e.account) ?? 0) + e.amountCents);
          const short = [...net].some(([a, v]) => v < 0 && !a.startsWith('world:') && get(a) + v < 0);
          const expected = keys.has(key) ? false : short ? 'refused' : true;

          const got = await write({ key, kind, entries, provider, trainerId: null }).catch((err: unknown) => {
            if (err instanceof LedgerError && /below zero/.test(err.message)) return 'refused' as const;
            throw err;
          });
          expect(got, `${o.op} ${key}`).toBe(expected);
          if (got === true) {
            keys.add(key);
            for (const [a, v] of net) model.set(a, get(a) + v);
            after?.();
          }
        }

        // the ledger as stored: balanced, nothing negative, and each balance the model's
        expect(await unbalanced()).toEqual([]);
        expect(await negative()).toEqual([]);
        const all = [
          account.fees,
          world,
          ...[0, 1, 2, 3, 4, 5].map((o) => account.suspense(provider, order(o))),
          ...trainers.flatMap((id) => [account.trainerPending(id), account.trainerPayable(id), account.trainerPaying(id)]),
        ];
        const stored = await balances(db, all, CUR);
        for (const a of all) expect(stored.get(a), a).toBe(get(a));

        // the identities: what came in for a trainer is pending, payable, paying or paid out
        trainers.forEach((id, i) => {
          const held = [account.trainerPending(id), account.trainerPayable(id), account.trainerPaying(id)].reduce(
            (s, a) => s + (stored.get(a) ?? 0),
            0,
          );
          expect(held + flows[i].paidOut, `trainer ${i}`).toBe(flows[i].paid - flows[i].refunded);
        });
        // and money outside Spotter is the mirror of everything inside: world + the rest = 0
        const inside = [...stored].filter(([a]) => a !== world && a !== account.fees).reduce((s, [, v]) => s + v, 0);
        const feesMoved = (stored.get(account.fees) ?? 0) - feesBefore;
        expect((stored.get(world) ?? 0) + inside + feesMoved).toBe(0);
      }),
      { numRuns: 50 },
    );
  }, 240_000);
});
