import { ERROR_STATUS, type ErrorCode } from '@spotter/shared';

/**
 * The one error type services throw: a stable code from the shared list, a message for people, and
 * field errors when there are some. The status follows from the code (docs/decisions/012-error-codes.md);
 * the errors plugin turns it into `{ message, statusCode, code, errors? }`.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }
}
