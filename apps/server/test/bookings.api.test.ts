import { describe, expect, it } from 'vitest';
import { bookings } from '../src/db/schema';
import { createAccount, useTestApp } from './helper';
import { auth, bookableTrainer, bookAndPay, hold, hourFromNow, mimePart, outboxEml } from './support/bookings';

const t = await useTestApp();
const db = t.database.db;
const HOUR = 60 * 60_000;

describe('GET /api/bookings', () => {
  it('lists a user’s sessions and a trainer’s schedule, upcoming first, with names; not other people’s', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user', { firstName: 'Omar', lastName: 'Adel' });
    const later = hourFromNow(100);
    const sooner = hourFromNow(60);
    await bookAndPay(t, me.token, trainer.id, later);
    await hold(t, me.token, trainer.id, sooner);
    const past = await db
      .insert(bookings)
      .values({
        trainerId: trainer.id,
        userId: me.id,
        startsAt: new Date(Date.now() - 48 * HOUR),
        endsAt: new Date(Date.now() - 47 * HOUR),
        status: 'confirmed',
        priceCents: 20000,
      })
      .returning();

    const mine = (await t.app.inject({ url: '/api/bookings', headers: auth(me.token) })).json().bookings;
    expect(mine.map((b: { startsAt: string }) => b.startsAt)).toEqual([sooner, later, past[0].startsAt.toISOString()]);
    expect(mine.map((b: { status: string }) => b.status)).toEqual(['pending', 'confirmed', 'completed']);
    expect(mine[1]).toMatchObject({
      price: 200,
      userFirstName: 'Omar',
      userLastName: 'Adel',
      canCancel: true,
      isRefundable: true,
    });
    expect(mine[1].trainerFirstName).toBeTruthy();

    const schedule = (await t.app.inject({ url: '/api/bookings', headers: auth(trainer.token) })).json().bookings;
    expect(schedule.map((b: { userFirstName: string }) => b.userFirstName)).toEqual(['Omar', 'Omar', 'Omar']);
    const stranger = await createAccount(t, 'user');
    expect((await t.app.inject({ url: '/api/bookings', headers: auth(stranger.token) })).json().bookings).toEqual([]);
    expect((await t.app.inject({ url: '/api/bookings' })).statusCode).toBe(401);
  });
});

describe('booking mails', () => {
  it('both sides get a confirmation with the session as an .ics file; names are plain text, escaped in html', async () => {
    const trainer = await bookableTrainer(t);
    const me = await createAccount(t, 'user', { firstName: 'Bob<script>', lastName: 'Evil' });
    const startsAt = hourFromNow(60);
    const { bookingId } = await bookAndPay(t, me.token, trainer.id, startsAt);
    const toUser = t.outbox().find((m) => m.to === me.email && m.subject.startsWith('Booked'));
    const toTrainer = t.outbox().find((m) => m.to === trainer.email && m.subject.startsWith('New booking'));
    expect(toUser?.text).toContain('$200.00');
    expect(toTrainer?.subject).toBe('New booking: Bob<script> Evil');
    const eml = outboxEml(t).find((e) => e.includes(`To: ${trainer.email}`) && e.includes('Subject: New booking'))!;
    expect(eml).toBeDefined();
    const html = mimePart(eml, 'text/html')!;
    expect(html).toContain('Bob&lt;script&gt; Evil booked');
    expect(html).not.toContain('<script>');
    expect(eml).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/);
    expect(eml).toMatch(/filename=session\.ics/);
    const ics = mimePart(eml, 'text/calendar')!;
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`UID:booking-${bookingId}@spotter`);
    expect(ics).toContain(`DTSTART:${startsAt.replace(/[-:]/g, '').replace('.000', '')}`);
    expect(ics).toContain(
      `DTEND:${new Date(Date.parse(startsAt) + HOUR).toISOString().replace(/[-:]/g, '').replace('.000', '')}`,
    );
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  });
});
