import { z } from 'zod';
import { ZId } from '@spotter/shared';
import { defineJob } from '../../platform/jobs';

/** The certificates module's durable jobs (platform/jobs.ts parses each payload before it runs). */
export const CERTIFICATE_JOBS = {
  /** The trainer's mail about an operator's decision (approved, or rejected with the reason). */
  decidedMail: defineJob('certificate.decided-mail', z.object({ certificateId: ZId })),
  /** 30 days before an approved certificate's last day: the trainer is mailed once (reminded_at). */
  remind: defineJob('certificate.remind', z.object({ certificateId: ZId })),
  /** The day after an approved certificate's last day: the trainer's verified_until is recomputed. */
  expired: defineJob('certificate.expired', z.object({ trainerId: ZId })),
  /** A trainer's account deleted: their certificates' files and rows go (docs/product.md#verified-coaches). */
  purge: defineJob('certificate.purge', z.object({ trainerId: ZId })),
};

/** How long a job enqueued for this process to run at once is kept from the pollers. */
export const RUN_NOW_CLAIM_MS = 2 * 60_000;
