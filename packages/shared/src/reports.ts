import { z } from 'zod';
import { REPORT_KINDS, REPORT_REASONS } from './console';

/**
 * POST /api/reports (signed-in people): a review, a message or a trainer's profile reported to
 * operators, with a reason from a short list and a note; one report per person and item
 * (docs/product.md#reports-and-moderation).
 */
export const ZCreateReportRequest = z.object({
  kind: z.enum(REPORT_KINDS, { error: 'Choose what you report: a review, a message or a profile' }),
  id: z.string({ error: 'Choose what you report' }).min(1, 'Choose what you report').max(64, 'Choose what you report'),
  reason: z.enum(REPORT_REASONS, { error: 'Choose a reason' }),
  note: z
    .string({ error: 'Write a note, or leave it empty' })
    .trim()
    .max(1000, 'Keep the note under 1,000 characters')
    .default(''),
});
export type TCreateReportRequest = z.input<typeof ZCreateReportRequest>;
export const ZCreateReportResponse = z.object({ message: z.string(), report: z.object({ _id: z.string() }) });
export type TCreateReportResponse = z.infer<typeof ZCreateReportResponse>;
