import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorResponse } from '@spotter/shared';
import type { Clock } from '../platform/clock';
import type { JobRunner } from '../platform/jobs';

const DAY_MS = 24 * 60 * 60_000;

/** Tests only, so not in the shared schemas nor the OpenAPI document. */
const ZAdvanceRequest = z.object({
  advanceMs: z
    .number()
    .int()
    .min(0)
    .max(366 * DAY_MS),
});
const ZAdvanceResponse = z.object({ now: z.iso.datetime(), jobsRun: z.number().int() });

/**
 * `POST /api/test/clock { advanceMs }` (docs/testing.md#the-test-clock): moves the test clock
 * forward, runs the durable jobs due by then (the poller's next tick would, later) and answers the
 * new time and how many jobs ran. Registered only when TEST_CLOCK is set, which production refuses.
 */
export function testClockRoutes(clock: Required<Clock>, jobs: Pick<JobRunner, 'runDue'>) {
  return async function (app: FastifyInstance) {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/test/clock',
      {
        schema: { hide: true, body: ZAdvanceRequest, response: { 200: ZAdvanceResponse, 400: ZErrorResponse } },
      },
      async (req) => {
        const now = clock.advance(req.body.advanceMs);
        const jobsRun = await jobs.runDue({ now });
        return { now: now.toISOString(), jobsRun };
      },
    );
  };
}
