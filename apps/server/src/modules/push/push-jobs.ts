import { z } from 'zod';
import { ZPushPayload } from '@spotter/shared';
import { defineJob } from '../../platform/jobs';

/** The push module's durable job (platform/jobs.ts): one notification to one device, retried while its push service fails. */
export const PUSH_DELIVER_JOB = defineJob(
  'push.deliver',
  // `accountId`: whose notice it is; a device another person has subscribed since gets nothing of it
  z.object({ subscriptionId: z.string().uuid(), accountId: z.string().uuid(), notice: ZPushPayload }),
  // a flood of notifications never delays a hold's expiry, a refund or a payout
  { priority: 'low' },
);
