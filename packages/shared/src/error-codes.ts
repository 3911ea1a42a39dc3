// No zod here: the web app's entry imports these codes (`@spotter/shared/error-codes`) without the schemas.

/**
 * Every error code the API answers, each with the one HTTP status it goes with
 * (docs/decisions/012-error-codes.md). Clients branch on the code, never on the message, which is
 * for people and may be reworded.
 */
export const ERROR_STATUS = {
  /** A field failed its schema (or a rule on one field); `errors` maps field to message. */
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  /** The request could not be read at all (bad percent-encoding, broken HTTP, a missing upload). */
  BAD_REQUEST: 400,
  WRONG_PASSWORD: 400,
  /** A mailed link (password reset) that is unknown, used or expired. */
  LINK_INVALID: 400,
  INVALID_IMAGE: 400,
  /** No token sent. */
  UNAUTHENTICATED: 401,
  /** A token that is expired, forged, or ended by a password change or deletion. */
  TOKEN_INVALID: 401,
  /** Login with an unknown e-mail or a wrong password (one answer for both). */
  INVALID_CREDENTIALS: 401,
  /** Signed in with the other role (a trainer on a user's route, a user posting as a trainer…). */
  FORBIDDEN_ROLE: 403,
  /** Someone else's thing. */
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  /** An operator suspended the account: no sign-in; the message gives their reason (docs/product.md#suspending-an-account). */
  ACCOUNT_SUSPENDED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  EMAIL_TAKEN: 409,
  SLOT_TAKEN: 409,
  TOO_MANY_HOLDS: 409,
  /**
   * The user's own hold on this slot ended (released or run out) less than
   * BOOKING_RULES.holdCooldownMinutes ago; the answer carries `Retry-After`. Others may hold it.
   */
  HOLD_COOLDOWN: 409,
  HOLD_EXPIRED: 409,
  ALREADY_PAID: 409,
  /** The booking is cancelled, refunded or over, so it can no longer be paid or cancelled. */
  BOOKING_CLOSED: 409,
  CANCEL_TOO_LATE: 409,
  /** A paid session is moved (rescheduled) only more than 24 hours before it starts. */
  RESCHEDULE_TOO_LATE: 409,
  STORAGE_FULL: 409,
  CONFLICT: 409,
  /** This person already reported this review, message or profile (one report per person and item). */
  ALREADY_REPORTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The payment provider refused (a declined card, an order not approved); its details come along. */
  PAYMENT_DECLINED: 422,
  /**
   * The provider captured another amount or currency than the booking's: it was refunded in full at
   * once and the booking is not confirmed (docs/decisions/042-money-ledger.md).
   */
  PAYMENT_MISMATCH: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  PROVIDER_UNAVAILABLE: 502,
  /** A feature this server has not been configured for (Google sign-in without GOOGLE_CLIENT_ID). */
  NOT_CONFIGURED: 503,
  /**
   * The database cannot be reached (or did not answer in time): nothing was done; try again in a
   * moment (the answer carries `Retry-After`). The server recovers on its own when it returns.
   */
  DATABASE_UNAVAILABLE: 503,
  PROVIDER_TIMEOUT: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The code an answer with this status carries when nothing more specific is known (framework errors). */
export const DEFAULT_CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'PAYMENT_DECLINED',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  500: 'INTERNAL',
  502: 'PROVIDER_UNAVAILABLE',
  503: 'NOT_CONFIGURED',
  504: 'PROVIDER_TIMEOUT',
};
