import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { jobs } from '../db/schema';

/**
 * A kind of job: its name in the `jobs` table and the zod schema of its payload. The payload is
 * checked when enqueued (by its type) and parsed when run, so a handler gets what the schema says.
 */
type JobKind<P extends JobPayload> = {
  readonly name: string;
  readonly payload: z.ZodType<P>;
  /** `until-done`: never parked for its failures (money whose outcome must be known), retried at most hourly. */
  readonly retries?: 'until-done';
  /**
   * `low`: run only when no other job is due (notifications): a flood of them never delays a hold's
   * expiry, a refund or a payout.
   */
  readonly priority?: 'low';
};
type JobPayload = Record<string, unknown>;

/** Defines a job kind; the module that runs the jobs owns it (e.g. modules/bookings/booking-jobs.ts). */
export const defineJob = <P extends JobPayload>(
  name: string,
  payload: z.ZodType<P>,
  options: { retries?: 'until-done'; priority?: 'low' } = {},
): JobKind<P> => ({ name, payload, ...options });

type JobHandler<P> = (payload: P, ctx: { now: Date }) => Promise<void>;

/** A stored payload its kind's schema refuses: retrying cannot help, so the job is parked at once. */
class MalformedPayload extends Error {
  constructor(kind: string, issues: string) {
    super(`payload of ${kind} does not match its schema: ${issues}`);
    this.name = 'MalformedPayload';
  }
}
type ClaimedJob = { id: number; kind: string; payload: unknown; attempts: number };

type JobRunnerOptions = {
  db: Db;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** How often the poller looks for due jobs. */
  pollMs?: number;
  /** How long a claimed job is kept from other processes; a process that dies frees it after this. */
  lockMs?: number;
  /** After this many failed attempts a job is parked (failed_at) and logged as an error. */
  maxAttempts?: number;
};

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Durable jobs in the `jobs` table, shared by every server process: a job is claimed with
 * `update … where id = (select … for update skip locked)`, so two processes never run the same
 * job, and a job whose process died is picked up again once its lock expires. Handlers must be
 * idempotent (a job can run twice if a process dies after the work and before the delete).
 */
export function createJobRunner({
  db,
  log,
  now = () => new Date(),
  pollMs = 15_000,
  lockMs = 5 * 60_000,
  maxAttempts = 5,
}: JobRunnerOptions) {
  /** By kind name: the handler behind its schema, so a stored payload is parsed before the handler sees it. */
  const handlers = new Map<string, JobHandler<unknown>>();
  /** Kinds retried until they succeed (`retries: 'until-done'`). */
  const untilDone = new Set<string>();
  /** Kinds run only when nothing else is due (`priority: 'low'`). */
  const lowPriority = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  /** The due job first in line: of the kinds of normal priority, or (`low`) of the low ones. */
  async function claimDue(at: Date, low: boolean): Promise<ClaimedJob | undefined> {
    const kinds = [...lowPriority];
    const which = !kinds.length
      ? sql``
      : low
        ? sql`and kind in (${sql.join(
            kinds.map((k) => sql`${k}`),
            sql`, `,
          )})`
        : sql`and kind not in (${sql.join(
            kinds.map((k) => sql`${k}`),
            sql`, `,
          )})`;
    if (low && !kinds.length) return undefined;
    const result = await db.execute(sql`
      update jobs set attempts = attempts + 1, locked_until = ${new Date(at.getTime() + lockMs).toISOString()}::timestamptz
      where id = (
        select id from jobs
        where failed_at is null and run_at <= ${at.toISOString()}::timestamptz
          and (locked_until is null or locked_until <= ${at.toISOString()}::timestamptz)
          ${which}
        order by run_at, id
        limit 1
        for update skip locked
      )
      returning id, kind, payload, attempts`);
    const [row] = rowsOf<ClaimedJob>(result);
    return row ? { ...row, id: Number(row.id) } : undefined;
  }

  async function execute(job: ClaimedJob, at: Date) {
    const handler = handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload, { now: at });
      await db.execute(sql`delete from jobs where id = ${job.id}`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const gaveUp = job.attempts >= maxAttempts && !untilDone.has(job.kind);
      if (gaveUp || !handler || err instanceof MalformedPayload) {
        log.error({ err, job: { id: job.id, kind: job.kind } }, 'job failed for good');
        await db.execute(
          sql`update jobs set failed_at = ${at.toISOString()}::timestamptz, locked_until = null, last_error = ${message} where id = ${job.id}`,
        );
      } else {
        // back off: 30 s, 1 min, 2 min, … at most an hour
        const delay = Math.min(30_000 * 2 ** Math.min(job.attempts - 1, 20), 60 * 60_000);
        log.warn({ err, job: { id: job.id, kind: job.kind, attempts: job.attempts } }, 'job failed, will retry');
        await db.execute(
          sql`update jobs set run_at = ${new Date(at.getTime() + delay).toISOString()}::timestamptz, locked_until = null, last_error = ${message} where id = ${job.id}`,
        );
      }
    }
  }

  async function runDue({ now: at = now(), max = 100 }: { now?: Date; max?: number } = {}): Promise<number> {
    let done = 0;
    while (done < max) {
      const job = (await claimDue(at, false)) ?? (await claimDue(at, true));
      if (!job) break;
      await execute(job, at);
      done++;
    }
    return done;
  }

  /** One poll at a time: a slow batch is never overlapped by the next tick. */
  function tick() {
    if (running) return running;
    running = runDue()
      .catch((err) => {
        log.error({ err }, 'job poll failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    /** Runs `kind`'s jobs; a stored payload that does not parse fails the job like a throwing handler. */
    register<P extends JobPayload>(kind: JobKind<P>, handler: JobHandler<P>) {
      if (kind.retries === 'until-done') untilDone.add(kind.name);
      if (kind.priority === 'low') lowPriority.add(kind.name);
      handlers.set(kind.name, async (stored, ctx) => {
        const payload = kind.payload.safeParse(stored);
        if (!payload.success) throw new MalformedPayload(kind.name, payload.error.message);
        await handler(payload.data, ctx);
      });
    },

    /**
     * Adds a job, inside the caller's transaction when given one. `claimFor` keeps it from the
     * pollers for that long, so the caller can run it at once with `runClaimed` after its commit;
     * should the process die first, a poller runs it once the claim lapses.
     */
    async enqueue<P extends JobPayload>(
      q: Db | Tx,
      job: { kind: JobKind<P>; runAt: Date; payload: P; claimFor?: number },
    ): Promise<number> {
      const [row] = await q
        .insert(jobs)
        .values({
          kind: job.kind.name,
          runAt: job.runAt,
          payload: job.kind.payload.parse(job.payload),
          lockedUntil: job.claimFor ? new Date(now().getTime() + job.claimFor) : null,
          attempts: job.claimFor ? 1 : 0,
        })
        .returning({ id: jobs.id });
      return row.id;
    },

    /** Runs a job this process enqueued with `claimFor`. */
    async runClaimed(id: number): Promise<void> {
      const result = await db.execute(sql`select id, kind, payload, attempts from jobs where id = ${id} and failed_at is null`);
      const [row] = rowsOf<ClaimedJob>(result);
      if (row) await execute({ ...row, id: Number(row.id) }, now());
    },

    runDue,

    /** Starts polling; the timer does not keep the process alive. */
    start() {
      if (timer) return;
      timer = setInterval(() => void tick(), pollMs);
      timer.unref();
    },

    /** Stops polling and waits for a poll in progress, so the database can be closed after. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },

    get isPolling() {
      return timer !== undefined;
    },
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;

/**
 * The job runner as a plugin: decorates `app.jobs`, polls while the app runs and stops before it
 * closes (so the database can be closed after). Modules register their job kinds on `app.jobs`.
 */
export const durableJobs = fp<{ db: Db; now?: () => Date }>(
  async (app, { db, now }) => {
    const runner = createJobRunner({ db, log: app.log, now });
    app.decorate('jobs', runner);
    app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => runner.stop());
  },
  { name: 'spotter-jobs', fastify: '5.x' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job runner (platform/jobs.ts); tests drive it with an injected `now`. */
    jobs: JobRunner;
  }
}
