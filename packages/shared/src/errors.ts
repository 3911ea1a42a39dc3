import { z } from 'zod';

/** The one error shape of the API (DECISIONS 4). */
export const ZErrorResponse = z.object({
  message: z.string(),
  statusCode: z.number(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponse>;
