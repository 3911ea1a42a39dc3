// The badge's time (docs/product.md#verified-coaches): 30 days before an approved certificate's last
// day the trainer is mailed once; the day after it the badge goes. Moves the test clock
// (docs/testing.md#the-test-clock), so on a database of its own.
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { CERTIFICATE_MSG } from '@spotter/shared';
import { accounts, certificates } from '../src/db/schema';
import { buildTestApp, createAccount, createFreshPgDatabase } from './helper';
import { inDays, pdf, uploadCertificate } from './support/certificates';
import { signedInOperator } from './support/console';
import { until } from './support/until';

const DAY = 24 * 60 * 60_000;
const fresh = await createFreshPgDatabase();
const t = await buildTestApp({ TEST_CLOCK: '1' }, { databaseUrl: fresh?.url ?? '' });
// signed in before the clock moves (a welcome link lasts a day on the app's clock)
const operator = await signedInOperator(t);
afterAll(async () => {
  await t.close();
  await fresh?.drop();
});

const advanceDays = async (days: number) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/test/clock', payload: { advanceMs: days * DAY } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { now: string; jobsRun: number };
};
const profile = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/trainerData/${id}` })).json().trainerData;
const verifiedList = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/trainers?ids=${id}&verified=true` })).json().viewAllTrainers as unknown[];
const reminders = (email: string) => t.outbox().filter((m) => m.to === email && /expires soon/.test(m.subject));

describe('a verified coach over time', () => {
  it('is reminded once 30 days before the last day, and loses the badge the day after it', async () => {
    const trainer = await createAccount(t, 'trainer');
    const expiresOn = inDays(40);
    const up = await uploadCertificate(t, trainer.token, { issuer: 'Egyptian Fitness Federation', expiresOn }, { data: pdf() });
    expect(up.statusCode, up.body).toBe(201);
    const id = up.json().certificate._id as string;
    const approved = await t.app.inject({
      method: 'POST',
      url: `/api/console/certificates/${id}/approve`,
      headers: { authorization: operator.token },
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await until(async () => (await profile(trainer.id)).verified === true, 'the badge');

    // 35 days before the last day: not yet
    await advanceDays(5);
    expect(reminders(trainer.email)).toEqual([]);

    // 29 days before: reminded, once
    await advanceDays(6);
    await until(() => reminders(trainer.email).length === 1, 'the reminder');
    expect(reminders(trainer.email)[0].text).toContain(expiresOn);
    const [row] = await t.database.db.select().from(certificates).where(eq(certificates.id, id));
    expect(row.remindedAt).not.toBeNull();
    await advanceDays(10);
    expect(reminders(trainer.email)).toHaveLength(1);
    // still a verified coach through the last day
    expect((await profile(trainer.id)).verified).toBe(true);

    // the day after the last day: the badge goes
    await advanceDays(20);
    await until(async () => (await profile(trainer.id)).verified === false, 'the badge to go');
    expect(await verifiedList(trainer.id)).toEqual([]);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, trainer.id));
    expect(account.verifiedUntil).toBeNull();
    const own = await t.app.inject({
      method: 'GET',
      url: '/api/trainer/certificates',
      headers: { authorization: trainer.token },
    });
    expect(own.json()).toMatchObject({ verified: false, certificates: [{ _id: id, status: 'approved', current: false }] });
    expect(reminders(trainer.email)).toHaveLength(1);
  });

  it('reminds nobody while a later approved certificate carries the badge on, and will not approve one that expired while waiting', async () => {
    const trainer = await createAccount(t, 'trainer');
    const now = Date.parse((await advanceDays(0)).now);
    const approve = (id: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/console/certificates/${id}/approve`,
        headers: { authorization: operator.token },
        payload: {},
      });
    const upload = async (days: number) => {
      const res = await uploadCertificate(t, trainer.token, { issuer: 'Academy', expiresOn: inDays(days, now) }, { data: pdf() });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().certificate._id as string;
    };
    const [soon, later, waiting] = [await upload(40), await upload(200), await upload(3)];
    expect((await approve(soon)).statusCode).toBe(200);
    expect((await approve(later)).statusCode).toBe(200);

    // past the first one's reminder day and its waiting sibling's last day
    const moved = await advanceDays(11);
    expect(moved.jobsRun).toBeGreaterThan(0);
    expect(reminders(trainer.email)).toEqual([]);
    const refused = await approve(waiting);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CERTIFICATE_MSG.expired);

    // the first one's last day passes; the later one keeps the badge
    await advanceDays(30);
    expect((await profile(trainer.id)).verified).toBe(true);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, trainer.id));
    expect(account.verifiedUntil).toBe(inDays(200, now));
  });
});
