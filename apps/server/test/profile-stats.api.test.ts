import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TReview } from '@spotter/shared';
import { bookings } from '../src/db/schema';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, hold, hourFromNow } from './support/bookings';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 60 * 60_000;

const profile = async (id: string) => (await t.app.inject(`/api/trainerData/${id}`)).json().trainerData;
const reviewsOf = async (id: string, token?: string) =>
  (await t.app.inject({ url: `/api/trainer/reviews/${id}`, headers: auth(token) })).json().allReviews as TReview[];
const review = (token: string, trainerId: string, comment: string) =>
  t.app.inject({ method: 'POST', url: '/api/reviews/new', headers: auth(token), payload: { trainerId, rating: 5, comment } });

/** Moves a paid booking into the past, as if its session had happened. */
async function sessionIsOver(bookingId: string) {
  const startsAt = new Date(Date.now() - 3 * HOUR);
  await db
    .update(bookings)
    .set({ startsAt, endsAt: new Date(startsAt.getTime() + HOUR) })
    .where(eq(bookings.id, bookingId));
}

describe("the public profile's subscribers (docs/product.md#numbers-from-data)", () => {
  it('counts distinct users with a paid booking, not holds', async () => {
    const trainer = await bookableTrainer(t);
    const [ana, ben, cat] = [await createAccount(t, 'user'), await createAccount(t, 'user'), await createAccount(t, 'user')];
    expect((await profile(trainer.id)).subscribers).toBe(0);
    await bookAndPay(t, ana.token, trainer.id, hourFromNow(30));
    await bookAndPay(t, ana.token, trainer.id, hourFromNow(31));
    await bookAndPay(t, ben.token, trainer.id, hourFromNow(32));
    expect((await hold(t, cat.token, trainer.id, hourFromNow(33))).statusCode).toBe(201);
    expect((await profile(trainer.id)).subscribers).toBe(2);
    // another trainer's subscribers are their own
    const other = await bookableTrainer(t);
    expect((await profile(other.id)).subscribers).toBe(0);
  });
});

describe('verifiedSession on reviews (docs/product.md#reviews)', () => {
  it('marks reviewers whose paid session with the trainer is over, and no one else', async () => {
    const trainer = await bookableTrainer(t);
    const other = await bookableTrainer(t);
    const [done, upcoming, never, elsewhere] = [
      await createAccount(t, 'user', { firstName: 'Done' }),
      await createAccount(t, 'user', { firstName: 'Upcoming' }),
      await createAccount(t, 'user', { firstName: 'Never' }),
      await createAccount(t, 'user', { firstName: 'Elsewhere' }),
    ];
    const past = await bookAndPay(t, done.token, trainer.id, hourFromNow(40));
    await sessionIsOver(past.bookingId);
    await bookAndPay(t, upcoming.token, trainer.id, hourFromNow(41));
    // a finished session with another trainer verifies nothing here
    const theirs = await bookAndPay(t, elsewhere.token, other.id, hourFromNow(42));
    await sessionIsOver(theirs.bookingId);

    const posted = await review(done.token, trainer.id, 'Worth it');
    expect(posted.statusCode).toBe(201);
    expect(posted.json().review).toMatchObject({ verifiedSession: true, isMine: true });
    for (const u of [upcoming, never, elsewhere])
      expect((await review(u.token, trainer.id, 'Looks good')).json().review.verifiedSession).toBe(false);

    const list = await reviewsOf(trainer.id);
    expect(list).toHaveLength(4);
    const byName = Object.fromEntries(list.map((r) => [r.reviewerFirstName, r.verifiedSession]));
    expect(byName).toEqual({ Done: true, Upcoming: false, Never: false, Elsewhere: false });
  });

  it('is false for every review of a trainer nobody has trained with', async () => {
    const trainer = await bookableTrainer(t);
    const u = await createAccount(t, 'user');
    await review(u.token, trainer.id, 'First impression');
    expect((await reviewsOf(trainer.id)).map((r) => r.verifiedSession)).toEqual([false]);
  });
});
