import { z } from 'zod';

import { ERROR_CODES } from './error-codes';

export { DEFAULT_CODE_OF_STATUS, ERROR_CODES, ERROR_STATUS, type ErrorCode } from './error-codes';
export const ZErrorCode = z.enum(ERROR_CODES);

/** The one error shape of the API (docs/product.md#errors, with the code of docs/decisions/012-error-codes.md). */
export const ZErrorResponse = z.object({
  message: z.string(),
  statusCode: z.number(),
  code: ZErrorCode,
  errors: z.record(z.string(), z.string()).optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponse>;
