import { z } from 'zod';
import { ZPushPayload } from '@spotter/shared';
import { defineJob } from '../../platform/jobs';

/** The push module's durable job (platform/jobs.ts): one notification to one device, retried while its push service fails. */
export const PUSH_DELIVER_JOB = defineJob('push.deliver', z.object({ subscriptionId: z.string().uuid(), notice: ZPushPayload }));
