import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ROLE_MSG, REVIEW_MSG, SERVER_MSG } from '@spotter/shared';
import { accounts, reviews as reviewsTable } from '../src/db/schema';
import { createAccount, insertTrainer, useTestApp } from './helper';

const t = await useTestApp();
const postReview = (payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url: '/api/reviews/new', payload, headers: token ? { authorization: token } : {} });
const reviewsOf = async (id: string, token?: string) =>
  (await t.app.inject({ url: `/api/trainer/reviews/${id}`, headers: token ? { authorization: token } : {} })).json().allReviews;
const trainerData = async (id: string) => (await t.app.inject(`/api/trainerData/${id}`)).json().trainerData;

const user = await createAccount(t, 'user', { firstName: 'Laila', lastName: 'Samir' });
const other = await createAccount(t, 'user', { firstName: 'Hany', lastName: 'Ragab' });
const trainerAccount = await createAccount(t, 'trainer');

describe('POST /api/reviews/new', () => {
  it('stores a user review with the names from the account, not the body, and updates the average', async () => {
    const tr = await insertTrainer(t);
    const res = await postReview(
      {
        trainerId: tr.id,
        rating: 4,
        comment: '  Great coach  ',
        reviewerFirstName: 'Fake',
        reviewerLastName: 'Name',
        reviewerProfilePhoto: 'https://evil.example/x.png',
        userToken: 'ignored',
      },
      user.token,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(REVIEW_MSG.created);
    const [review] = await reviewsOf(tr.id);
    expect(review).toMatchObject({
      trainerId: tr.id,
      rating: 4,
      comment: 'Great coach',
      reviewerFirstName: 'Laila',
      reviewerLastName: 'Samir',
      reviewerProfilePhoto: '',
    });
    expect(typeof review.createdAt).toBe('string');
    expect(await trainerData(tr.id)).toMatchObject({ rating: 4, ratingCount: 1 });

    await postReview({ trainerId: tr.id, rating: 1, comment: 'Late twice' }, other.token);
    expect(await trainerData(tr.id)).toMatchObject({ rating: 2.5, ratingCount: 2 });
    const list = await reviewsOf(tr.id);
    expect(list.map((r: { reviewerFirstName: string }) => r.reviewerFirstName)).toEqual(['Hany', 'Laila']);
  });

  it('a second review by the same user edits the first', async () => {
    const tr = await insertTrainer(t);
    await postReview({ trainerId: tr.id, rating: 2, comment: 'Meh' }, user.token);
    await postReview({ trainerId: tr.id, rating: 5, comment: 'Changed my mind' }, user.token);
    const list = await reviewsOf(tr.id, user.token);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ rating: 5, comment: 'Changed my mind', isMine: true });
    expect(await trainerData(tr.id)).toMatchObject({ rating: 5, ratingCount: 1 });
  });

  it('visitors get 401 and trainers 403, with the spec toast texts, and nothing is stored', async () => {
    const tr = await insertTrainer(t);
    const visitor = await postReview({ trainerId: tr.id, rating: 5, comment: 'Hi' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().message).toBe(ROLE_MSG.loginToReview);
    const byTrainer = await postReview({ trainerId: tr.id, rating: 5, comment: 'Hi' }, trainerAccount.token);
    expect(byTrainer.statusCode).toBe(403);
    expect(byTrainer.json().message).toBe(ROLE_MSG.trainersCantReview);
    expect(await reviewsOf(tr.id)).toEqual([]);
    expect(await trainerData(tr.id)).toMatchObject({ rating: 0, ratingCount: 0 });
  });

  it.each([
    [{ rating: 0 }, 'rating'],
    [{ rating: 6 }, 'rating'],
    [{ rating: 3.5 }, 'rating'],
    [{ rating: -1 }, 'rating'],
    [{ rating: 'five' }, 'rating'],
    [{ comment: '' }, 'comment'],
    [{ comment: '   ' }, 'comment'],
    [{ comment: 'x'.repeat(1001) }, 'comment'],
  ])('rejects %j with a message on %s', async (override, field) => {
    const tr = await insertTrainer(t);
    const res = await postReview({ trainerId: tr.id, rating: 4, comment: 'Fine', ...override }, user.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty([field]);
    expect(await reviewsOf(tr.id)).toEqual([]);
  });

  it('accepts a 1000-character comment and keeps HTML as text', async () => {
    const tr = await insertTrainer(t);
    const html = '<img src=x onerror=alert(1)>';
    expect((await postReview({ trainerId: tr.id, rating: 3, comment: html }, user.token)).statusCode).toBe(201);
    expect((await reviewsOf(tr.id))[0].comment).toBe(html);
    const tr2 = await insertTrainer(t);
    expect((await postReview({ trainerId: tr2.id, rating: 3, comment: 'y'.repeat(1000) }, user.token)).statusCode).toBe(201);
  });

  it('answers 404 for a trainer that does not exist or is not listed, and for a user id', async () => {
    const hidden = await insertTrainer(t, { emailVerifiedAt: null });
    for (const trainerId of [hidden.id, other.id, '6f1c2b9e-0000-4000-8000-000000000000', 'nope']) {
      const res = await postReview({ trainerId, rating: 4, comment: 'Hi' }, user.token);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(SERVER_MSG.trainerNotFound);
    }
  });

  it('concurrent reviews all count (no lost update)', async () => {
    const tr = await insertTrainer(t);
    const reviewers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createAccount(t, 'user', { firstName: `Rev${'a'.repeat(i + 1)}` })),
    );
    const ratings = [5, 4, 3, 5, 2, 5, 1, 4];
    const results = await Promise.all(
      reviewers.map((r, i) => postReview({ trainerId: tr.id, rating: ratings[i], comment: 'ok' }, r.token)),
    );
    expect(results.map((r) => r.statusCode)).toEqual(ratings.map(() => 201));
    const avg = Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 100) / 100;
    expect(await trainerData(tr.id)).toMatchObject({ ratingCount: 8, rating: avg });
  });

  it('counts the distribution of stars', async () => {
    const tr = await insertTrainer(t);
    await postReview({ trainerId: tr.id, rating: 5, comment: 'a' }, user.token);
    await postReview({ trainerId: tr.id, rating: 2, comment: 'b' }, other.token);
    const res = await t.app.inject(`/api/trainer/reviews/${tr.id}/distribution`);
    expect(res.json().distribution).toEqual({ '1': 0, '2': 1, '3': 0, '4': 0, '5': 1 });
  });
});

describe('unverified accounts', () => {
  it('cannot post a review until the e-mail is verified: 403 with a message, nothing counted', async () => {
    const tr = await insertTrainer(t);
    const unverified = await createAccount(t, 'user', {}, { verify: false });
    const res = await postReview({ trainerId: tr.id, rating: 1, comment: 'Never met him' }, unverified.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: SERVER_MSG.verifyToReview, statusCode: 403, code: 'EMAIL_NOT_VERIFIED' });
    expect(await reviewsOf(tr.id)).toEqual([]);
    expect(await trainerData(tr.id)).toMatchObject({ rating: 0, ratingCount: 0 });
  });
});

describe('GET /api/trainer/reviews/:id', () => {
  it('is public and answers an empty list for a trainer without reviews; 404 for a malformed id', async () => {
    const tr = await insertTrainer(t);
    expect(await reviewsOf(tr.id)).toEqual([]);
    expect((await t.app.inject('/api/trainer/reviews/not-an-id')).statusCode).toBe(404);
  });

  it('answers the stored times to the millisecond, and a deleted reviewer as a former member without a photo', async () => {
    const tr = await insertTrainer(t);
    const leaving = await createAccount(t, 'user', { firstName: 'Gone', lastName: 'Soon' });
    await postReview({ trainerId: tr.id, rating: 5, comment: 'Was great' }, leaving.token);
    // microseconds in the database; JavaScript's Date (and the answer) keeps the milliseconds
    await t.database.db
      .update(reviewsTable)
      .set({ createdAt: new Date('2026-03-04T05:06:07.089Z'), updatedAt: new Date('2026-11-12T13:14:15.999Z') })
      .where(eq(reviewsTable.trainerId, tr.id));
    // the reviewer's account changes by hand, so the cached answer is dropped as a write would
    const reviewOnceReviewerIs = async (values: Partial<typeof accounts.$inferInsert>) => {
      await t.database.db.update(accounts).set(values).where(eq(accounts.id, leaving.id));
      t.app.readCache.bump();
      return (await reviewsOf(tr.id))[0];
    };
    const before = await reviewOnceReviewerIs({ picture: '/uploads/face.webp' });
    expect(before).toMatchObject({
      createdAt: '2026-03-04T05:06:07.089Z',
      updatedAt: '2026-11-12T13:14:15.999Z',
      reviewerFirstName: 'Gone',
      reviewerLastName: 'Soon',
      verifiedSession: false,
    });
    expect(before.reviewerProfilePhoto).toMatch(/\/uploads\/face\.webp$/);

    const after = await reviewOnceReviewerIs({ deletedAt: new Date(), firstName: '', lastName: '' });
    expect(after).toMatchObject({
      reviewerFirstName: 'Former',
      reviewerLastName: 'member',
      reviewerProfilePhoto: '',
      comment: 'Was great',
    });
  });

  it('many trainers read at the same time each get their own profile and reviews, newest first', async () => {
    // requests that miss the read cache together are read in shared statements (platform/batch-loader.ts)
    const trainers = await Promise.all(Array.from({ length: 25 }, (_, i) => insertTrainer(t, { firstName: `Batch${i}` })));
    for (const [i, tr] of trainers.entries()) {
      await postReview({ trainerId: tr.id, rating: 1 + (i % 5), comment: `Laila on Batch${i}` }, user.token);
      if (i % 3 === 0) await postReview({ trainerId: tr.id, rating: 5, comment: `Hany on Batch${i}` }, other.token);
    }
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const [profiles, reviews] = await Promise.all([
      Promise.all([
        ...trainers.map((tr) => t.app.inject(`/api/trainerData/${tr.id.toUpperCase()}`)),
        t.app.inject(`/api/trainerData/${unknown}`),
      ]),
      Promise.all([...trainers.map((tr) => reviewsOf(tr.id)), reviewsOf(unknown)]),
    ]);
    for (const [i, tr] of trainers.entries()) {
      expect(profiles[i].json().trainerData).toMatchObject({
        _id: tr.id,
        firstName: `Batch${i}`,
        ratingCount: i % 3 === 0 ? 2 : 1,
      });
      const expected = i % 3 === 0 ? [`Hany on Batch${i}`, `Laila on Batch${i}`] : [`Laila on Batch${i}`];
      expect(reviews[i].map((r: { comment: string }) => r.comment)).toEqual(expected);
    }
    expect(profiles[trainers.length].statusCode).toBe(404);
    expect(profiles[trainers.length].json().message).toBe(SERVER_MSG.trainerNotFound);
    expect(reviews[trainers.length]).toEqual([]);
  });
});
