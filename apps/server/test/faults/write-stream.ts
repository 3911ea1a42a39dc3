import { inArray, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../src/db/client';
import { bookings, messages, reviews } from '../../src/db/schema';
import { api, demoLogin, hourFromNow } from './server-process';

/** What the server acknowledged with a 2xx: each must be in the database afterwards. */
export type Acked = {
  messages: string[];
  /** One review per (trainer, user), so the stored comment must be exactly this one. */
  reviews: Array<{ trainerId: string; userId: string; comment: string }>;
  bookings: string[];
};

type Actor = { token: string; id: string };

const ALL_HOURS = Array.from({ length: 24 }, (_, h) => h);
const MEMBERS = ['user@spotter.test', 'member01@spotter.test', 'member02@spotter.test', 'member03@spotter.test'];

/**
 * The seeded demo data as a workload: four verified users, and the demo trainer bookable at every
 * hour (UTC) for the bookings.
 */
export async function prepareWriters(base: string) {
  const trainer = await demoLogin(base, 'trainer', 'trainer@spotter.test');
  const weekly = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: ALL_HOURS }));
  const availability = await api(base, '/api/trainer/availability', {
    method: 'PUT',
    token: trainer.token,
    body: { timeZone: 'UTC', weekly },
  });
  if (availability.status !== 200) throw new Error(`availability: ${availability.status} ${JSON.stringify(availability.body)}`);
  const users: Actor[] = [];
  for (const email of MEMBERS) users.push(await demoLogin(base, 'user', email));
  const list = await api<{ viewAllTrainers: Array<{ _id: string }> }>(base, '/api/trainers?limit=50');
  const trainerIds = list.body.viewAllTrainers.map((t) => t._id);
  if (trainerIds.length < 20) throw new Error(`expected the demo trainers, got ${trainerIds.length}`);
  return { base, trainer, users, trainerIds };
}

type Writers = Awaited<ReturnType<typeof prepareWriters>>;

/**
 * One writer per user, each sending a chat message, a review and (while it may hold one) a
 * booking in turn, until `stop()` or until the server stops answering. A write counts as
 * acknowledged only when its 2xx answer arrived.
 */
export function streamWrites({ base, trainer, users, trainerIds }: Writers, tag: string) {
  const acked: Acked = { messages: [], reviews: [], bookings: [] };
  /** Answers of 500 and above, as `status path`: a backup or a busy server must cause none. */
  const serverErrors: string[] = [];
  const call = async <T>(path: string, options: Parameters<typeof api>[2]) => {
    const res = await api<T>(base, path, options);
    if (res.status >= 500) serverErrors.push(`${res.status} ${path}`);
    return res;
  };
  let stopped = false;
  let nextSlot = 0;
  let failures = 0;
  const writer = async (user: Actor, index: number) => {
    let holds = 0;
    for (let i = 0; !stopped; i++) {
      try {
        const kind = i % 3;
        if (kind === 0) {
          const res = await call<{ message: { _id: string } }>('/api/chats', {
            method: 'POST',
            token: user.token,
            body: { recipientId: trainer.id, message: `${tag} message ${index}.${i}` },
          });
          if (res.status === 201) acked.messages.push(res.body.message._id);
        } else if (kind === 1) {
          const trainerId = trainerIds[Math.floor(i / 3) % trainerIds.length];
          const comment = `${tag} review ${index}.${i}`;
          const res = await call('/api/reviews/new', {
            method: 'POST',
            token: user.token,
            body: { trainerId, rating: 1 + (i % 5), comment },
          });
          if (res.status === 201) {
            // an edit of the same pair replaces the earlier acknowledgement
            const j = acked.reviews.findIndex((r) => r.trainerId === trainerId && r.userId === user.id);
            if (j >= 0) acked.reviews.splice(j, 1);
            acked.reviews.push({ trainerId, userId: user.id, comment });
          }
        } else if (holds < 3) {
          const res = await call<{ booking: { _id: string } }>('/api/bookings', {
            method: 'POST',
            token: user.token,
            body: { trainerId: trainer.id, startsAt: hourFromNow(48 + nextSlot++) },
          });
          if (res.status === 201) {
            holds++;
            acked.bookings.push(res.body.booking._id);
          }
        }
      } catch {
        // the server is gone: whatever got no answer was never acknowledged
        if (++failures > 3 || stopped) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const done = Promise.all(users.map((u, i) => writer(u, i)));
  return {
    acked,
    serverErrors,
    count: () => acked.messages.length + acked.reviews.length + acked.bookings.length,
    async stop() {
      stopped = true;
      await done;
    },
    done,
  };
}

/** Copies the acknowledgements as they are now (later ones may still arrive). */
export const snapshot = (a: Acked): Acked => ({
  messages: [...a.messages],
  reviews: a.reviews.map((r) => ({ ...r })),
  bookings: [...a.bookings],
});

/** Every acknowledged write is in `database`. */
export async function expectAllStored(database: Database, acked: Acked) {
  const db = database.db;
  const storedMessages = acked.messages.length
    ? await db.select({ id: messages.id }).from(messages).where(inArray(messages.id, acked.messages))
    : [];
  expect(storedMessages.map((m) => m.id).sort()).toEqual([...acked.messages].sort());
  const storedBookings = acked.bookings.length
    ? await db.select({ id: bookings.id }).from(bookings).where(inArray(bookings.id, acked.bookings))
    : [];
  expect(storedBookings.map((b) => b.id).sort()).toEqual([...acked.bookings].sort());
  const storedReviews = await db
    .select({ trainerId: reviews.trainerId, userId: reviews.userId, comment: reviews.comment })
    .from(reviews)
    .where(sql`${reviews.comment} like ${'%review%'}`);
  const byPair = new Map(storedReviews.map((r) => [`${r.trainerId}/${r.userId}`, r.comment]));
  const missing = acked.reviews.filter((r) => !isSameOrLater(byPair.get(`${r.trainerId}/${r.userId}`), r.comment));
  expect(missing).toEqual([]);
}

/**
 * A pair edited again after the acknowledged write may hold a later comment of the same writer
 * (one that committed but whose answer was lost): `tag review w.i` with a larger i.
 */
function isSameOrLater(stored: string | undefined, acked: string): boolean {
  if (stored === acked) return true;
  if (!stored) return false;
  const [a, b] = [acked, stored].map((s) => /^(.*) review (\d+)\.(\d+)$/.exec(s));
  return !!a && !!b && a[1] === b[1] && a[2] === b[2] && Number(b[3]) > Number(a[3]);
}
