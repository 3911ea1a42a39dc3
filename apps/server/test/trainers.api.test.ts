import { describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@spotter/shared';
import { createAccount, insertTrainer, useTestApp } from './helper';

const t = await useTestApp();
const list = async (query: string) => {
  const res = await t.app.inject(`/api/trainers?${query}`);
  return { status: res.statusCode, body: res.json() };
};

// Every test filters by a city of its own, so files sharing one PostgreSQL database do not meet.
const city = `Testville${Date.now().toString(36)}`;
const day = 24 * 60 * 60 * 1000;
const seeded = [
  {
    firstName: 'Nadia',
    lastName: 'Kamel',
    gender: 'female' as const,
    priceCents: 15000,
    ratingAvg: 4.8,
    title: 'Yoga teacher',
    description: 'Vinyasa flows',
    createdAt: new Date(Date.now() - 5 * day),
  },
  {
    firstName: 'Omar',
    lastName: 'Zaki',
    gender: 'male' as const,
    priceCents: 90000,
    ratingAvg: 3.1,
    title: 'Boxing coach',
    description: 'Pads and footwork',
    createdAt: new Date(Date.now() - 1 * day),
  },
  {
    firstName: 'Salma',
    lastName: 'Fouad',
    gender: 'female' as const,
    priceCents: 40000,
    ratingAvg: 4.2,
    title: 'Running coach',
    description: 'Your first 5K',
    createdAt: new Date(Date.now() - 3 * day),
  },
  {
    firstName: 'Karim',
    lastName: 'Helmy',
    gender: 'male' as const,
    priceCents: 25000,
    ratingAvg: 0,
    title: 'Strength coach',
    description: 'Squat 100% better_now',
    createdAt: new Date(Date.now() - 2 * day),
  },
];
for (const s of seeded) await insertTrainer(t, { ...s, city });
await insertTrainer(t, { firstName: 'Hidden', city, emailVerifiedAt: null });
await insertTrainer(t, { firstName: 'Gone', city, deletedAt: new Date() });
const names = (b: { viewAllTrainers: Array<{ firstName: string }> }) => b.viewAllTrainers.map((x) => x.firstName);

describe('GET /api/trainers', () => {
  it('lists verified trainers only, best rated first, with the public fields only', async () => {
    const { status, body } = await list(`city=${city}`);
    expect(status).toBe(200);
    expect(names(body)).toEqual(['Nadia', 'Salma', 'Omar', 'Karim']);
    expect(body).toMatchObject({ total: 4, totalIsEstimate: false, page: 1, limit: 24 });
    const first = body.viewAllTrainers[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        '_id',
        'city',
        'country',
        'description',
        'firstName',
        'gender',
        'lastName',
        'nextFreeAt',
        'picture',
        'price',
        'rating',
        'ratingCount',
        'title',
        // a 'Verified coach' (docs/product.md#verified-coaches)
        'verified',
      ].sort(),
    );
    expect(first).toMatchObject({ price: 150, rating: 4.8, nextFreeAt: null, verified: false });
  });

  it('sorts by price both ways and by newest', async () => {
    expect(names((await list(`city=${city}&sort=price_asc`)).body)).toEqual(['Nadia', 'Karim', 'Salma', 'Omar']);
    expect(names((await list(`city=${city}&sort=price_desc`)).body)).toEqual(['Omar', 'Salma', 'Karim', 'Nadia']);
    expect(names((await list(`city=${city}&sort=newest`)).body)).toEqual(['Omar', 'Karim', 'Salma', 'Nadia']);
  });

  it('filters by price range, minimum rating, gender and city (any case)', async () => {
    expect(names((await list(`city=${city}&minPrice=200&maxPrice=400&sort=price_asc`)).body)).toEqual(['Karim', 'Salma']);
    expect(names((await list(`city=${city}&minRating=4`)).body)).toEqual(['Nadia', 'Salma']);
    expect(names((await list(`city=${city}&gender=male`)).body)).toEqual(['Omar', 'Karim']);
    expect(names((await list(`city=${city.toUpperCase()}&gender=female&minRating=4.5`)).body)).toEqual(['Nadia']);
  });

  it('searches name, title and description without case, treating % and _ as text', async () => {
    expect(names((await list(`city=${city}&q=nadia`)).body)).toEqual(['Nadia']);
    expect(names((await list(`city=${city}&q=BOXING`)).body)).toEqual(['Omar']);
    expect(names((await list(`city=${city}&q=5k`)).body)).toEqual(['Salma']);
    expect(names((await list(`city=${city}&q=100%25`)).body)).toEqual(['Karim']);
    expect(names((await list(`city=${city}&q=better_now`)).body)).toEqual(['Karim']);
    expect(names((await list(`city=${city}&q=b_tter`)).body)).toEqual([]);
    expect((await list(`city=${city}&q=nobody-like-this`)).body).toMatchObject({ viewAllTrainers: [], total: 0 });
  });

  it('pages with page and limit', async () => {
    const p1 = (await list(`city=${city}&limit=3&page=1`)).body;
    const p2 = (await list(`city=${city}&limit=3&page=2`)).body;
    expect(names(p1)).toEqual(['Nadia', 'Salma', 'Omar']);
    expect(names(p2)).toEqual(['Karim']);
    expect(p2).toMatchObject({ total: 4, page: 2, limit: 3 });
    expect((await list(`city=${city}&page=9`)).body.viewAllTrainers).toEqual([]);
  });

  it('filters by a list of ids (favourites only) and ignores ids that are not trainers', async () => {
    const all = (await list(`city=${city}`)).body.viewAllTrainers;
    const ids = [all[1]._id, all[3]._id, 'not-an-id'].join(',');
    expect(names((await list(`ids=${ids}`)).body)).toEqual(['Salma', 'Karim']);
    expect((await list('ids=')).body.total).toBe(0);
  });

  it.each([
    ['page=0', 'page'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['minPrice=-1', 'minPrice'],
    ['minPrice=500&maxPrice=100', 'minPrice'],
    ['minRating=6', 'minRating'],
    ['gender=robot', 'gender'],
    ['sort=cheapest', 'sort'],
    [`q=${'x'.repeat(101)}`, 'q'],
  ])('answers 400 for %s', async (query, field) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body.errors).toHaveProperty([field]);
  });
});

describe('GET /api/trainerData/:id (public profile)', () => {
  it('adds ratingCount and subscribers, never contact or body data', async () => {
    const tr = await insertTrainer(t, { firstName: 'Public', city, ratingAvg: 4.5, ratingCount: 2 });
    const res = await t.app.inject(`/api/trainerData/${tr.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().trainerData).toMatchObject({
      _id: tr.id,
      firstName: 'Public',
      rating: 4.5,
      ratingCount: 2,
      subscribers: 0,
    });
    for (const key of ['email', 'phone', 'age', 'height', 'weight']) expect(res.json().trainerData).not.toHaveProperty(key);
  });

  it('is 404 for unverified and deleted trainers', async () => {
    const hidden = await insertTrainer(t, { emailVerifiedAt: null });
    const gone = await insertTrainer(t, { deletedAt: new Date() });
    for (const id of [hidden.id, gone.id]) {
      const res = await t.app.inject(`/api/trainerData/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(SERVER_MSG.trainerNotFound);
    }
  });
});

describe('a trainer who signs up and verifies appears in the list', () => {
  it('is listed under the city given at sign-up (any case), with the price in dollars', async () => {
    const own = `Owncity${Date.now().toString(36)}`;
    const tr = await createAccount(t, 'trainer', { price: 450, city: ` ${own} ` });
    const body = (await list(`city=${own.toLowerCase()}`)).body;
    expect(body.viewAllTrainers).toHaveLength(1);
    expect(body.viewAllTrainers[0]).toMatchObject({
      _id: tr.id,
      city: own,
      country: 'Egypt',
      price: 450,
      rating: 0,
      ratingCount: 0,
    });
    expect((await t.app.inject(`/api/trainerData/${tr.id}`)).json().trainerData).toMatchObject({ city: own, country: 'Egypt' });
  });
});

describe('"Best rated" ranks by a Bayesian average (docs/decisions/016-bayesian-rating.md)', () => {
  it('one 5-star review ranks below ten reviews averaging 4.8; the answer keeps the plain average', async () => {
    const town = `Bayestown${Date.now().toString(36)}`;
    const one = await insertTrainer(t, { firstName: 'Once', city: town });
    const ten = await insertTrainer(t, { firstName: 'Often', city: town });
    const weak = await insertTrainer(t, { firstName: 'Weak', city: 'Elsewhere' });
    const users = await Promise.all(Array.from({ length: 10 }, () => createAccount(t, 'user')));
    const review = (trainerId: string, token: string, rating: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/reviews/new',
        headers: { authorization: token },
        payload: { trainerId, rating, comment: 'Ok' },
      });
    // a site mean like a real one (well under 4.8), read when each score is written
    for (const u of users) expect((await review(weak.id, u.token, 2)).statusCode).toBe(201);
    for (const [i, u] of users.entries()) await review(ten.id, u.token, i < 8 ? 5 : 4);
    await review(one.id, users[0].token, 5);

    const body = (await list(`city=${town}&sort=rating`)).body;
    expect(names(body)).toEqual(['Often', 'Once']);
    expect(body.viewAllTrainers[0]).toMatchObject({ rating: 4.8, ratingCount: 10 });
    expect(body.viewAllTrainers[1]).toMatchObject({ rating: 5, ratingCount: 1 });
  });
});

describe('counting without counting the whole table', () => {
  it('counts exactly up to the cap and estimates past it', async () => {
    const { countTrainers } = await import('../src/modules/trainers/trainers.repo');
    const town = `Counttown${Date.now().toString(36)}`;
    for (let i = 0; i < 4; i++) await insertTrainer(t, { city: town });
    expect(await countTrainers(t.database.db, { city: town }, 2_000)).toBe(4);
    const capped = await countTrainers(t.database.db, { city: town }, 2);
    expect(capped).toBeGreaterThanOrEqual(3);
  });

  it('reports server time on API answers', async () => {
    const res = await t.app.inject(`/api/trainers?city=${city}`);
    expect(res.headers['server-timing']).toMatch(/^app;dur=\d+(\.\d+)?$/);
  });
});

describe('trailing slashes are ignored', () => {
  it('/api/trainerData/ is the own-trainer route (a token is required), not a trainer with an empty id', async () => {
    const anonymous = await t.app.inject('/api/trainerData/');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: SERVER_MSG.noToken, statusCode: 401, code: 'UNAUTHENTICATED' });
    const tr = await createAccount(t, 'trainer');
    const own = await t.app.inject({ url: '/api/trainerData/', headers: { authorization: tr.token } });
    expect(own.statusCode).toBe(200);
    expect(own.json().trainerData).toMatchObject({ _id: tr.id, email: tr.email });
  });

  it('/api/trainerData/{id}/ and /api/trainers/ answer as without the slash', async () => {
    const tr = await insertTrainer(t, { firstName: 'Slash', city });
    const res = await t.app.inject(`/api/trainerData/${tr.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json().trainerData).toMatchObject({ _id: tr.id, firstName: 'Slash' });
    const listed = await t.app.inject(`/api/trainers/?city=${city}&q=Slash`);
    expect(listed.statusCode).toBe(200);
    expect(names(listed.json())).toEqual(['Slash']);
  });
});

describe('pictures', () => {
  it('answers stored paths as absolute URLs on PUBLIC_URL, and keeps what is stored', async () => {
    const tr = await insertTrainer(t, { firstName: 'Pictured', city, picture: '/api/avatars/pictured.svg?g=f' });
    const absolute = `${t.config.publicUrl}/api/avatars/pictured.svg?g=f`;
    expect((await t.app.inject(`/api/trainerData/${tr.id}`)).json().trainerData.picture).toBe(absolute);
    const listed = (await list(`city=${city}&q=Pictured`)).body.viewAllTrainers;
    expect(listed.map((x: { picture: string }) => x.picture)).toEqual([absolute]);
    const { accounts } = await import('../src/db/schema');
    const { eq } = await import('drizzle-orm');
    const [row] = await t.database.db.select({ picture: accounts.picture }).from(accounts).where(eq(accounts.id, tr.id));
    expect(row.picture).toBe('/api/avatars/pictured.svg?g=f');
    // already absolute: left as it is
    const remote = await insertTrainer(t, { city, picture: 'https://cdn.example/coach.png' });
    expect((await t.app.inject(`/api/trainerData/${remote.id}`)).json().trainerData.picture).toBe(
      'https://cdn.example/coach.png',
    );
  });

  it("answers the owner's picture and reviewers' photos absolute too", async () => {
    const { accounts } = await import('../src/db/schema');
    const { eq } = await import('drizzle-orm');
    const u = await createAccount(t, 'user');
    await t.database.db.update(accounts).set({ picture: '/api/avatars/reviewer.svg' }).where(eq(accounts.id, u.id));
    const me = await t.app.inject({ url: '/api/userData', headers: { authorization: u.token } });
    expect(me.json().userData.picture).toBe(`${t.config.publicUrl}/api/avatars/reviewer.svg`);
    const tr = await insertTrainer(t, { city });
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/reviews/new',
      headers: { authorization: u.token },
      payload: { trainerId: tr.id, rating: 5, comment: 'Good' },
    });
    expect(posted.json().review.reviewerProfilePhoto).toBe(`${t.config.publicUrl}/api/avatars/reviewer.svg`);
    const reviews = await t.app.inject(`/api/trainer/reviews/${tr.id}`);
    expect(reviews.json().allReviews[0].reviewerProfilePhoto).toBe(`${t.config.publicUrl}/api/avatars/reviewer.svg`);
  });
});

describe('public answers never read private columns', () => {
  const PRIVATE = ['password_hash', '"email"', '"phone"', '"age"', '"height"', '"weight"', 'token_version'];

  it('the list and the profile select only public columns', async () => {
    const repo = await import('../src/modules/trainers/trainers.repo');
    const page = repo
      .findTrainers(t.database.db, {
        filters: { city, q: 'coach', minPrice: 100, ids: [] },
        sort: 'rating',
        limit: 24,
        offset: 0,
      })
      .toSQL().sql;
    const one = repo.findTrainerProfilesQuery(t.database.db).toSQL().sql;
    for (const sql of [page, one]) {
      expect(sql).toMatch(/^select ("accounts"\.)?"id", ("accounts"\.)?"first_name"/);
      for (const column of PRIVATE) expect(sql).not.toContain(column);
    }
  });

  it('the rows the list and the profile read hold no private field', async () => {
    const repo = await import('../src/modules/trainers/trainers.repo');
    const [row] = await repo.findTrainers(t.database.db, { filters: { city }, sort: 'rating', limit: 1, offset: 0 });
    const one = await repo.trainerProfileReader(t.database.db)(row.id);
    // and the next free slot's start, from the free slots stored for the list
    // and whether they are a verified coach (docs/product.md#verified-coaches)
    expect(Object.keys(row).sort()).toEqual([...Object.keys(repo.publicTrainerColumns), 'nextFreeAt', 'verified'].sort());
    expect(Object.keys(one!).sort()).toEqual(
      [...Object.keys(repo.publicTrainerColumns), 'subscribers', 'nextFreeAt', 'verified'].sort(),
    );
    expect(Object.keys(repo.publicTrainerColumns)).not.toEqual(expect.arrayContaining(['passwordHash']));
  });

  it("the owner's own account is read without the password hash", async () => {
    const { findAccountById } = await import('../src/modules/accounts/accounts.repo');
    const me = await createAccount(t, 'trainer');
    const row = await findAccountById(t.database.db, me.id);
    expect(row).toBeDefined();
    expect(row).not.toHaveProperty('passwordHash');
  });
});
