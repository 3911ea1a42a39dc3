// As time passes, the list's free slots follow the booking dialog's: the window's far edge brings in
// new slots, passed ones leave (docs/decisions/040-finding-free-trainers.md). An app on a clock the
// test moves, with the bookings and trainers modules as app.ts wires them.
import { afterAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createJobRunner } from '../src/platform/jobs';
import { createTokenService } from '../src/lib/tokens';
import { createAuth } from '../src/plugins/auth';
import { eventsPlugin } from '../src/platform/events';
import { cachesPlugin } from '../src/platform/caches';
import { settledWritesPlugin } from '../src/platform/settled-writes';
import { registerErrorHandling } from '../src/plugins/errors';
import { bookingsModule, createBookingsServices } from '../src/modules/bookings';
import { createTrainersService, trainersRoutes } from '../src/modules/trainers';
import { useTestApp } from './helper';
import { bookableTrainer } from './support/bookings';

const t = await useTestApp();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

let clock = new Date();
const app = Fastify({ logger: false });
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
registerErrorHandling(app);
const now = () => clock;
const config = { publicUrl: 'http://localhost:3000', paypal: { apiBase: 'http://127.0.0.1:9', timeoutMs: 1000 } };
const jobs = createJobRunner({ db: t.database.db, log: app.log, now });
await app.register(eventsPlugin, { database: t.database });
await app.register(cachesPlugin);
await app.register(settledWritesPlugin, { database: t.database });
const services = createBookingsServices({
  database: t.database,
  mailer: { send: async () => undefined },
  config,
  jobs,
  now,
  log: app.log,
  events: app.events,
});
await app.register(
  async (api) => {
    await api.register(trainersRoutes(createTrainersService({ db: t.database.db, bookings: services.context })));
    await api.register(
      bookingsModule({
        database: t.database,
        auth: createAuth(t.database.db, createTokenService(t.config.jwtSecret)),
        jobs,
        config,
        services,
        mailer: { send: async () => undefined },
      }),
    );
  },
  { prefix: '/api' },
);
await app.ready();
afterAll(() => app.close());

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const get = async (url: string) => (await app.inject(url)).json();

describe('as the clock moves', () => {
  it('a slot entering the window’s far edge is found without computing anything again', async () => {
    // one hour a week, 3 hours past the window's end: offered a week ahead (and maybe today), and on
    // that date once the clock has moved 4 hours (the stored slots reach a day past the window)
    const start = clock.getTime();
    const edge = new Date(Math.ceil((start + 14 * DAY + 3 * HOUR) / HOUR) * HOUR);
    const trainer = await bookableTrainer(t, { weekly: [{ weekday: edge.getUTCDay(), hours: [edge.getUTCHours()] }] });
    const q = `ids=${trainer.id}&availableOn=${utcDate(edge.getTime())}`;
    const before = (await get(`/api/trainers/${trainer.id}/slots`)).slots as string[];
    expect(before).toContain(new Date(edge.getTime() - 7 * DAY).toISOString());
    expect(before).not.toContain(edge.toISOString());
    expect((await get(`/api/trainers?${q}`)).viewAllTrainers).toEqual([]);
    clock = new Date(start + 4 * HOUR);
    expect((await get(`/api/trainers/${trainer.id}/slots`)).slots).toContain(edge.toISOString());
    expect((await get(`/api/trainers?${q}&limit=22`)).viewAllTrainers.map((x: { _id: string }) => x._id)).toEqual([trainer.id]);
  });

  it('nextFreeAt and availableOn follow the dialog’s slots past the first window’s end', async () => {
    // one hour on one weekday, three days ahead: on days 3, 10 and 17 (the last beyond today's window)
    const start = clock.getTime();
    const weekday = new Date(start + 3 * DAY).getUTCDay();
    const trainer = await bookableTrainer(t, { weekly: [{ weekday, hours: [10] }] });
    const q = `ids=${trainer.id}`;
    const occurrence = (week: number) => {
      const d = new Date(start + (3 + 7 * week) * DAY);
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 10)).toISOString();
    };

    const first = (await get(`/api/trainers/${trainer.id}/slots`)).slots as string[];
    expect(first).toEqual([occurrence(0), occurrence(1)]);
    expect((await get(`/api/trainers?${q}`)).viewAllTrainers[0].nextFreeAt).toBe(occurrence(0));
    expect((await get(`/api/trainers?${q}&availableOn=${utcDate(Date.parse(occurrence(2)))}`)).viewAllTrainers).toEqual([]);

    // four days on: the first has passed, the third is in the window
    clock = new Date(start + 4 * DAY);
    const later = (await get(`/api/trainers/${trainer.id}/slots`)).slots as string[];
    expect(later).toEqual([occurrence(1), occurrence(2)]);
    // the answer kept from before runs out on the next quarter hour: the same address answers anew
    expect((await get(`/api/trainers?${q}`)).viewAllTrainers[0].nextFreeAt).toBe(occurrence(1));
    expect((await get(`/api/trainerData/${trainer.id}`)).trainerData.nextFreeAt).toBe(occurrence(1));
    const onThird = await get(`/api/trainers?${q}&availableOn=${utcDate(Date.parse(occurrence(2)))}&limit=23`);
    expect(onThird.viewAllTrainers.map((x: { _id: string }) => x._id)).toEqual([trainer.id]);
    const onFirst = await get(`/api/trainers?${q}&availableOn=${utcDate(Date.parse(occurrence(0)))}&limit=23`);
    expect(onFirst.viewAllTrainers).toEqual([]);
  });
});
