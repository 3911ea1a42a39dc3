import { BOOKING_RULES } from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { freeSlots, slotStateReader, type BookingsContext } from '../bookings';
import { minNotices, staleTrainerIds, storeFreeSlots, summarise, type FreeSlotRow } from './free-slots.repo';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
/** Trainers computed in one go: a few batched reads of slot states, one delete and one insert. */
const CHUNK = 200;
/**
 * The table holds one day beyond the bookable window, so a slot entering the window as time passes
 * is already there; every trainer is computed again before that day runs out (`STALE_AFTER`).
 */
const HORIZON_EXTRA = DAY;
/** Trainers computed longer ago than this are computed again by the sweep (well inside `HORIZON_EXTRA`). */
const STALE_AFTER = 6 * HOUR;
/** How often a process sweeps (a read also sweeps first when the last sweep is older than `STALE_AFTER`). */
const SWEEP_EVERY = HOUR;
/** How often the summaries whose first slot passed are brought up to date (the list reads the slots for them meanwhile). */
const SUMMARISE_EVERY = 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The local date (YYYY-MM-DD), hour and minute of an instant in a zone. */
function localParts(instant: number, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(instant))) p[part.type] = part.value;
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute) };
}

/** The first instant (on a quarter hour) of the local date an instant falls on. */
function dayStart(instant: number, timeZone: string): number {
  const { date, hour, minute } = localParts(instant, timeZone);
  let t = instant - hour * HOUR - minute * 60_000;
  // a daylight-saving change that day moves the wall clock: step to the date's first quarter hour
  while (localParts(t, timeZone).date !== date) t += 15 * 60_000;
  while (localParts(t - 15 * 60_000, timeZone).date === date) t -= 15 * 60_000;
  return t;
}

/**
 * Each listed trainer's offered slots, kept in `trainer_free_slots` for the list's filters, its
 * `soonest` sort and `nextFreeAt` (docs/decisions/040-finding-free-trainers.md). The slots are the
 * bookings module's own (`freeSlots`, what GET /api/trainers/:id/slots answers); a trainer is computed
 * again when the database announces a change to their bookings, hours or account (`changed`), and
 * every few hours for the window's moving edge (`sweep`). A read calls `fresh()` first: it waits
 * until every change announced before it is in the table.
 */
export function createFreeSlotsIndex({ db, ctx, concurrentReads }: { db: Db; ctx: BookingsContext; concurrentReads?: number }) {
  const now = () => ctx.now();
  // the same computation one day ahead: the slots of the day after the window
  const farNow = () => new Date(ctx.now().getTime() + HORIZON_EXTRA);
  const farCtx: BookingsContext = {
    ...ctx,
    now: farNow,
    slotStates: slotStateReader(ctx.db, farNow, BOOKING_RULES.daysAhead, concurrentReads),
  };

  const dirty = new Set<string>();
  let everything = false;
  /** Changes announced so far, and how many of them are stored. */
  let announced = 0;
  let applied = 0;
  /** When the last sweep started (undefined: none yet; a read waits for the first). */
  let lastSweep: number | undefined;
  let sweepQueue: string[] = [];
  let sweepWanted = true;
  /** The last change announced that a sweep stores (a bulk write to accounts). */
  let sweepAnnounced = 0;
  let sweepApplied = 0;
  let running: Promise<void> | undefined;
  /** Resolved after each step of a run, so a waiting read looks again. */
  let stepped: { promise: Promise<void>; resolve: () => void } = withResolvers();

  async function slotsOf(c: BookingsContext, id: string) {
    try {
      return await freeSlots(c, { trainerId: id });
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return undefined; // not a listed trainer
      throw err;
    }
  }

  /** Computes these accounts' slots and stores them (an id that is no listed trainer: none). */
  async function refresh(ids: string[]): Promise<void> {
    if (!ids.length) return;
    const at = now().getTime();
    const windowEnd = at + BOOKING_RULES.daysAhead * DAY;
    const [near, far, notices] = await Promise.all([
      Promise.all(ids.map((id) => slotsOf(ctx, id))),
      Promise.all(ids.map((id) => slotsOf(farCtx, id))),
      minNotices(db, ids),
    ]);
    const rows: FreeSlotRow[] = [];
    const listed: string[] = [];
    ids.forEach((trainerId, i) => {
      const n = near[i];
      if (!n) return;
      listed.push(trainerId);
      const starts = new Set(n.slots.map((s) => Date.parse(s)));
      for (const s of far[i]?.slots ?? []) {
        const t = Date.parse(s);
        if (t > windowEnd) starts.add(t);
      }
      const notice = (notices.get(trainerId) ?? 0) * HOUR;
      for (const startsAt of starts) {
        const local = localParts(startsAt, n.timeZone);
        rows.push({
          trainerId,
          startsAt,
          offeredUntil: startsAt - notice,
          localDate: local.date,
          localHour: local.hour,
          dayStartsAt: dayStart(startsAt, n.timeZone),
        });
      }
    });
    await storeFreeSlots(db, { ids, rows, listed, at });
  }

  async function refreshAll(ids: string[]) {
    for (let i = 0; i < ids.length; i += CHUNK) await refresh(ids.slice(i, i + CHUNK));
  }

  const staleIds = (before: number | undefined) => staleTrainerIds(db, before);

  /** One step: the changes announced first, then a chunk of a sweep; false when nothing is left. */
  async function step(): Promise<boolean> {
    if (dirty.size || everything) {
      const upTo = announced;
      const all = everything;
      const ids = [...dirty];
      everything = false;
      dirty.clear();
      try {
        await refreshAll(all ? await staleIds(undefined) : ids);
      } catch (err) {
        // computed again by the next run (a waiting read gets the error)
        for (const id of ids) dirty.add(id);
        everything ||= all;
        throw err;
      }
      applied = Math.max(applied, upTo);
      return true;
    }
    if (sweepQueue.length) {
      await refresh(sweepQueue.splice(0, CHUNK));
      return true;
    }
    if (sweepWanted) {
      sweepWanted = false;
      const upTo = sweepAnnounced;
      const at = now().getTime();
      sweepQueue = await staleIds(at - STALE_AFTER);
      // done before a waiting read goes on when small, the first, after a long pause, or for a change
      if (
        sweepQueue.length <= 2 * CHUNK ||
        lastSweep === undefined ||
        at - lastSweep >= HORIZON_EXTRA / 2 ||
        upTo > sweepApplied
      ) {
        await refreshAll(sweepQueue.splice(0));
      }
      sweepApplied = Math.max(sweepApplied, upTo);
      lastSweep = at;
      return true;
    }
    return false;
  }

  /** Runs until nothing is left to compute; one run at a time. */
  function run(): Promise<void> {
    running ??= (async () => {
      try {
        while (await step()) {
          const done = stepped;
          stepped = withResolvers();
          done.resolve();
        }
      } finally {
        running = undefined;
        stepped.resolve();
        stepped = withResolvers();
      }
    })();
    return running;
  }

  /** A read must wait: a change it should see is not stored yet, or the window's far edge is not covered. */
  const mustWait = (target: number, sweepTarget: number) =>
    applied < target || sweepApplied < sweepTarget || lastSweep === undefined || now().getTime() - lastSweep >= HORIZON_EXTRA / 2;

  return {
    /**
     * The database announced a change (platform/events.ts): a trainer's bookings or hours change their
     * slots; an account's, whether they are listed. `ids` undefined: too many to name. `change`
     * undefined (an unknown payload, or the listener came back): anything may have changed.
     */
    changed(change: { kind: string; ids?: string[] } | undefined) {
      if (change && !['bookings', 'availability', 'accounts'].includes(change.kind)) return;
      if (change?.kind === 'accounts' && !change.ids) {
        // many accounts at once (a bulk write): the listed trainers never computed are computed
        sweepWanted = true;
        sweepAnnounced++;
      } else {
        announced++;
        if (change?.ids) for (const id of change.ids) dirty.add(id);
        else everything = true;
      }
      void run().catch(() => undefined); // a failure is seen, and retried, by the next read
    },
    /** Waits until every change announced so far is stored (a read calls it first). */
    async fresh(): Promise<void> {
      const target = announced;
      const sweepTarget = sweepAnnounced;
      while (mustWait(target, sweepTarget)) {
        if (lastSweep === undefined || now().getTime() - lastSweep >= HORIZON_EXTRA / 2) sweepWanted = true;
        const next = stepped.promise;
        await Promise.race([next, run()]); // a failed step throws here, to the read
      }
    },
    /** Sweeps every `SWEEP_EVERY` in the background; answers a function that stops it. */
    startSweeping(onError: (err: unknown) => void): () => void {
      const timer = setInterval(() => {
        sweepWanted = true;
        run().catch(onError);
      }, SWEEP_EVERY);
      let summarising: Promise<void> | undefined;
      const summaries = setInterval(() => {
        summarising ??= summarise(db, now().getTime())
          .catch(onError)
          .finally(() => (summarising = undefined));
      }, SUMMARISE_EVERY);
      timer.unref();
      summaries.unref();
      return () => {
        clearInterval(timer);
        clearInterval(summaries);
      };
    },
    /** Waits for a run under way (before the database closes). */
    async idle(): Promise<void> {
      await running?.catch(() => undefined);
    },
  };
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
