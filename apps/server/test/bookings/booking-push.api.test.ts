// A booking's changes reach both people's open sockets (/api/ws) as `{ type: 'booking', booking }`, each
// as that person sees it, from whichever process made the change: announced on the database's
// `booking` channel (context.ts announceBooking), pushed by every process's socket hub (chats.ws.ts).
import { afterAll, describe, expect, it } from 'vitest';
import type { TBooking, TWsServerFrame } from '@spotter/shared';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createAccount, useTestApp } from '../helper';
import { bookableTrainer, bookAndPay, cancel, hourFromNow } from '../support/bookings';
import { ChatSocket } from '../ws-client';

const t = await useTestApp();
// a second server process on the same database, with its own LISTEN (as behind a load balancer)
const other = await buildApp({
  config: loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: t.config.dataDir,
    JWT_SECRET: t.config.jwtSecret,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    RATE_LIMIT_MAX: '10000',
  }),
  database: t.database,
  logger: false,
});
const sockets: ChatSocket[] = [];
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await other.close();
});
const baseOf = async (app: typeof other) => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
};
const [baseA, baseB] = [await baseOf(t.app), await baseOf(other)];
const open = async (base: string, token: string) => {
  const s = await ChatSocket.open(base, token);
  sockets.push(s);
  return s;
};
const bookingFrame = (s: ChatSocket, id: string, status: string) =>
  s
    .next(
      (f): f is Extract<TWsServerFrame, { type: 'booking' }> =>
        f.type === 'booking' && f.booking._id === id && f.booking.status === status,
    )
    .then((f) => f.booking as TBooking);

describe('the booking frame', () => {
  it('a payment and a trainer’s cancellation reach both people on either process, each with their own view', async () => {
    const trainer = await bookableTrainer(t);
    const user = await createAccount(t, 'user');
    const bystander = await createAccount(t, 'user');
    const userOnB = await open(baseB, user.token);
    const trainerOnA = await open(baseA, trainer.token);
    const trainerOnB = await open(baseB, trainer.token);
    const bystanderOnB = await open(baseB, bystander.token);

    // inside 24 hours: the user can no longer cancel it, the trainer still can
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(5));
    const [forUser, forTrainerA, forTrainerB] = await Promise.all([
      bookingFrame(userOnB, bookingId, 'confirmed'),
      bookingFrame(trainerOnA, bookingId, 'confirmed'),
      bookingFrame(trainerOnB, bookingId, 'confirmed'),
    ]);
    expect(forUser).toMatchObject({ canCancel: false, canMarkNoShow: false, cancellableUntil: null });
    expect(forTrainerA).toMatchObject({ canCancel: true, isRefundable: true });
    expect(forTrainerB).toEqual(forTrainerA);

    expect((await cancel(t, trainer.token, bookingId, { reason: 'Ill today' })).statusCode).toBe(200);
    const [refunded, refundedForTrainer] = await Promise.all([
      bookingFrame(userOnB, bookingId, 'refunded'),
      bookingFrame(trainerOnA, bookingId, 'refunded'),
    ]);
    expect(refunded).toMatchObject({ cancelledBy: 'trainer', cancelReason: 'Ill today', canCancel: false });
    expect(refundedForTrainer).toMatchObject({ cancelledBy: 'trainer', cancelReason: 'Ill today' });

    // nobody else hears of it: a message sent to the bystander after the booking's frames arrives first
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: { authorization: trainer.token },
      payload: { message: 'after the booking', recipientId: bystander.id },
    });
    expect(res.statusCode).toBe(201);
    await bystanderOnB.message('after the booking');
    expect(bystanderOnB.frames.filter((f) => f.type === 'booking')).toEqual([]);
  });
});

describe('a moved session', () => {
  it('reaches both people on either process with its new time', async () => {
    const trainer = await bookableTrainer(t);
    const user = await createAccount(t, 'user');
    const { bookingId } = await bookAndPay(t, user.token, trainer.id, hourFromNow(60));
    const userOnA = await open(baseA, user.token);
    const trainerOnB = await open(baseB, trainer.token);
    const to = hourFromNow(70);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${bookingId}/reschedule`,
      headers: { authorization: user.token },
      payload: { startsAt: to },
    });
    expect(res.statusCode).toBe(200);
    const movedFrame = (s: ChatSocket) =>
      s.next(
        (f): f is Extract<TWsServerFrame, { type: 'booking' }> =>
          f.type === 'booking' && f.booking._id === bookingId && f.booking.startsAt === to,
      );
    const [forUser, forTrainer] = await Promise.all([movedFrame(userOnA), movedFrame(trainerOnB)]);
    expect(forUser.booking).toMatchObject({ status: 'confirmed', canReschedule: true });
    expect(forTrainer.booking).toMatchObject({ status: 'confirmed', canReschedule: false, canCancel: true });
  });
});
