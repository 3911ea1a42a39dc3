// The console's people (docs/product.md#suspending-an-account): search, a person's page, suspend,
// restore and delete, each written to the audit log; a suspension ends sign-in, tokens and sockets at
// once, unlists a trainer and refunds upcoming paid sessions in full (src/modules/console/people.ts).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOOKING_MSG, PEOPLE_MSG, suspendedMessage, WS_CLOSE, type TPersonPageResponse } from '@spotter/shared';
import { accounts, bookings, refunds } from '../src/db/schema';
import { checkLedger } from '../src/modules/money/ledger-check';
import { createAccount, useTestApp, type TestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, hourFromNow } from './support/bookings';
import { signedInOperator } from './support/console';
import { until } from './support/until';
import { ChatSocket } from './ws-client';

const t = await useTestApp();
await t.app.listen({ port: 0, host: '127.0.0.1' });
const address = t.app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const operator = await signedInOperator(t);
const op = { authorization: operator.token };

const act = (id: string, action: 'suspend' | 'restore' | 'delete', reason = 'Took payments outside Spotter') =>
  t.app.inject({ method: 'POST', url: `/api/console/people/${id}/${action}`, headers: op, payload: { reason } });
const page = async (id: string) => {
  const res = await t.app.inject({ url: `/api/console/people/${id}`, headers: op });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TPersonPageResponse;
};
const bookingStatus = async (tt: TestApp, id: string) =>
  (await tt.database.db.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].status;
const login = (role: 'users' | 'trainers', who: { email: string; password: string }) =>
  t.app.inject({ method: 'POST', url: `/api/${role}/login`, payload: { email: who.email, password: who.password } });
/** Runs due jobs (the pollers may run them too) until the check holds. */
const runJobsUntil = (check: () => Promise<boolean>, what: string) =>
  until(async () => {
    await t.app.jobs.runDue({});
    return check();
  }, what);

describe('GET /api/console/people', () => {
  it('finds people by name, e-mail or city, with role and status filters', async () => {
    const mona = await createAccount(t, 'user', { firstName: 'Monazite', lastName: 'Quarry', city: 'Luxor' });
    const coach = await createAccount(t, 'trainer', { firstName: 'Monazite', lastName: 'Coach', city: 'Aswan' });
    const search = async (query: string) => {
      const res = await t.app.inject({ url: `/api/console/people?${query}`, headers: op });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      return (res.json().people as Array<{ _id: string; status: string; role: string }>).map((p) => p._id);
    };
    expect(await search('q=monazite')).toEqual([coach.id, mona.id]);
    expect(await search('q=monazite&role=user')).toEqual([mona.id]);
    expect(await search(`q=${encodeURIComponent(coach.email)}`)).toEqual([coach.id]);
    expect(await search('q=monazite&status=suspended')).toEqual([]);
    // the operator's % and _ are letters, not patterns
    expect(await search('q=%25%25')).toEqual([]);
    const bad = await t.app.inject({ url: '/api/console/people?status=gone', headers: op });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Choose active, unverified, suspended or deleted');
  });

  it('answers 404 for an unknown person and any id that is not one', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', "1'; drop table accounts"]) {
      const res = await t.app.inject({ url: `/api/console/people/${encodeURIComponent(id)}`, headers: op });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe(PEOPLE_MSG.notFound);
      expect((await act(encodeURIComponent(id), 'suspend')).statusCode).toBe(404);
    }
  });

  it('refuses an action without a reason, and changes nothing', async () => {
    const who = await createAccount(t, 'user');
    const res = await act(who.id, 'suspend', ' ');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Give a reason: it is kept in the audit log');
    expect((await page(who.id)).person.status).toBe('active');
  });
});

describe('suspending a trainer', () => {
  it('ends their sign-in, token and sockets at once, unlists them, refunds their upcoming sessions, and writes the audit log', async () => {
    const trainer = await bookableTrainer(t, { price: 200 });
    const lastName = `Suspendable${Date.now().toString(36)}`;
    await t.database.db.update(accounts).set({ lastName }).where(eq(accounts.id, trainer.id));
    const client = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, client.token, trainer.id, hourFromNow(72));
    const socket = await ChatSocket.open(base, trainer.token);
    const listed = async () => (await t.app.inject({ url: `/api/trainers?q=${lastName}` })).json().viewAllTrainers.length > 0;
    await until(listed, 'the trainer in the list');

    const res = await act(trainer.id, 'suspend', 'Fake certificates');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: PEOPLE_MSG.suspended,
      person: { _id: trainer.id, status: 'suspended', suspensionReason: 'Fake certificates' },
    });

    // the token ends at once, and the socket closes
    expect((await t.app.inject({ url: '/api/trainerData', headers: auth(trainer.token) })).statusCode).toBe(401);
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
    // sign-in is refused with the reason, after the password proved who they are
    const refused = await login('trainers', trainer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED', message: suspendedMessage('Fake certificates') });
    expect((await login('trainers', { ...trainer, password: 'Wrong-pass-1' })).statusCode).toBe(401);
    // unlisted: not in the list, no public profile
    await until(async () => !(await listed()), 'the trainer out of the list');
    expect((await t.app.inject({ url: `/api/trainerData/${trainer.id}` })).statusCode).toBe(404);
    // their client's session is refunded in full
    await runJobsUntil(async () => (await bookingStatus(t, bookingId)) === 'refunded', 'the session refunded');
    const seen = (await t.app.inject({ url: '/api/bookings', headers: auth(client.token) })).json().bookings as Array<{
      _id: string;
      status: string;
    }>;
    expect(seen.find((b) => b._id === bookingId)?.status).toBe('refunded');

    // the audit log and the person's page say what happened, by whom and why
    const p = await page(trainer.id);
    expect(p.person).toMatchObject({ status: 'suspended', suspensionReason: 'Fake certificates' });
    expect(p.bookings.find((b) => b._id === bookingId)).toMatchObject({ status: 'refunded', priceCents: 20000 });
    expect(p.payments[0]).toMatchObject({ bookingId, amountCents: 20000, refundedCents: 20000 });
    expect(p.audit[0]).toMatchObject({
      operatorId: operator.id,
      action: 'person.suspend',
      targetKind: 'trainer',
      targetId: trainer.id,
      reason: 'Fake certificates',
      before: { status: 'active', suspensionReason: null },
      after: { status: 'suspended', suspensionReason: 'Fake certificates' },
    });

    // twice: refused, nothing written
    const again = await act(trainer.id, 'suspend');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PEOPLE_MSG.alreadySuspended);
    expect((await page(trainer.id)).audit).toHaveLength(1);

    // restored: they sign in again and are listed again; the old token stays ended
    const restored = await act(trainer.id, 'restore', 'Certificates checked by phone');
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().person).toMatchObject({ status: 'active', suspensionReason: null });
    expect((await login('trainers', trainer)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/trainerData', headers: auth(trainer.token) })).statusCode).toBe(401);
    await until(listed, 'the trainer back in the list');
    expect((await page(trainer.id)).audit.map((e) => e.action)).toEqual(['person.restore', 'person.suspend']);
    expect((await act(trainer.id, 'restore')).statusCode).toBe(409);
  });
});

describe('suspending and deleting a user', () => {
  it('refunds the upcoming paid sessions of a suspended user and closes their socket', async () => {
    const trainer = await bookableTrainer(t, { price: 150 });
    const user = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(80));
    const socket = await ChatSocket.open(base, user.token);
    expect((await act(user.id, 'suspend', 'Harassed trainers')).statusCode).toBe(200);
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
    expect((await t.app.inject({ url: '/api/userData', headers: auth(user.token) })).statusCode).toBe(401);
    expect((await login('users', user)).json().message).toBe(suspendedMessage('Harassed trainers'));
    await runJobsUntil(async () => (await bookingStatus(t, bookingId)) === 'refunded', 'the session refunded');
    // the trainer reads why their session ended
    const theirs = (await t.app.inject({ url: '/api/bookings', headers: auth(trainer.token) })).json().bookings as Array<{
      _id: string;
      status: string;
    }>;
    expect(theirs.find((b) => b._id === bookingId)?.status).toBe('refunded');
  });

  it('deletes a user as they would delete themselves, refunding their sessions; once', async () => {
    const trainer = await bookableTrainer(t, { price: 120 });
    const user = await createAccount(t, 'user', { firstName: 'Deletable' });
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(90));
    const res = await act(user.id, 'delete', 'Asked by mail to close the account');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: PEOPLE_MSG.deleted, person: { status: 'deleted', firstName: '' } });
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, user.id));
    expect(row.email).toBe(`deleted-${user.id}@deleted.invalid`);
    expect((await t.app.inject({ url: '/api/userData', headers: auth(user.token) })).statusCode).toBe(401);
    await runJobsUntil(async () => (await bookingStatus(t, bookingId)) === 'refunded', 'the session refunded');
    const again = await act(user.id, 'delete');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PEOPLE_MSG.alreadyDeleted);
    expect((await act(user.id, 'suspend')).statusCode).toBe(409);
    expect((await page(user.id)).audit.map((e) => e.action)).toEqual(['person.delete']);
  });
});

describe('deleting a trainer', () => {
  it('refunds their client’s card-paid session in full through the money layer, unlists them, ends their token and closes their socket', async () => {
    const trainer = await bookableTrainer(t, { price: 175 });
    const lastName = `Deletable${Date.now().toString(36)}`;
    await t.database.db.update(accounts).set({ lastName }).where(eq(accounts.id, trainer.id));
    const client = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, client.token, trainer.id, hourFromNow(60));
    const socket = await ChatSocket.open(base, trainer.token);
    const listed = async () => (await t.app.inject({ url: `/api/trainers?q=${lastName}` })).json().viewAllTrainers.length > 0;
    await until(listed, 'the trainer in the list');

    const res = await act(trainer.id, 'delete', 'Fake certificates, asked to close');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: PEOPLE_MSG.deleted, person: { _id: trainer.id, status: 'deleted' } });

    // the token ends at once, and the socket closes
    expect((await t.app.inject({ url: '/api/trainerData', headers: auth(trainer.token) })).statusCode).toBe(401);
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
    expect((await login('trainers', trainer)).statusCode).toBe(401);
    // gone: not in the list, no public profile
    await until(async () => !(await listed()), 'the trainer out of the list');
    expect((await t.app.inject({ url: `/api/trainerData/${trainer.id}` })).statusCode).toBe(404);

    // the client's payment comes back in full through the money layer: a completed refund, a balanced ledger, a mail
    await runJobsUntil(async () => (await bookingStatus(t, bookingId)) === 'refunded', 'the session refunded');
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.bookingId, bookingId));
    expect(rows).toEqual([expect.objectContaining({ status: 'completed', amountCents: 17500 })]);
    expect((await checkLedger({ db: t.database.db })).differences).toEqual([]);
    const seen = (await t.app.inject({ url: '/api/bookings', headers: auth(client.token) })).json().bookings as Array<{
      _id: string;
      status: string;
      cancelReason?: string;
    }>;
    expect(seen.find((b) => b._id === bookingId)).toMatchObject({ status: 'refunded', cancelReason: BOOKING_MSG.trainerLeft });
    const mails = t.outbox().filter((m) => m.to === client.email && m.subject.startsWith('Cancelled'));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('The payment of $175.00 is refunded in full.');

    // the audit log says who did it and why
    expect((await page(trainer.id)).audit).toEqual([
      expect.objectContaining({
        operatorId: operator.id,
        action: 'person.delete',
        targetKind: 'trainer',
        reason: 'Fake certificates, asked to close',
      }),
    ]);
  });
});
