import { z } from 'zod';

/**
 * The operator console (docs/product.md#the-operator-console): operators are not users or trainers;
 * they are made on the command line (`npm run operator -- add --email …`), sign in with a password
 * and a second factor (RFC 6238 codes from an authenticator app, or a one-time recovery code), and
 * every action they take is written to an append-only audit log.
 */
export const CONSOLE_RULES = {
  /** An operator's password: longer than a member's, since it opens everyone's data. */
  passwordMin: 12,
  passwordMax: 200,
  /** RFC 6238: HMAC-SHA-1, 6 digits, a new code every 30 seconds. */
  codeDigits: 6,
  codePeriodSeconds: 30,
  recoveryCodes: 10,
  /** The welcome link the command prints lasts this long. */
  welcomeHours: 24,
  /** A console session lasts this long, then the operator signs in again. */
  sessionHours: 12,
  auditPageMax: 200,
} as const;

export const CONSOLE_MSG = {
  passwordShort: `Use at least ${CONSOLE_RULES.passwordMin} characters`,
  passwordLong: `Use at most ${CONSOLE_RULES.passwordMax} characters`,
  welcomeInvalid: 'This welcome link is unknown, used or expired. Ask for a new one (npm run operator -- add --email …).',
  codeRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code',
  signInFailed: 'The e-mail, the password or the code is wrong',
  onlyOperators: 'Only operators can use the console',
  signedOut: 'Your console session ended. Sign in again.',
} as const;

const ZConsolePassword = z
  .string({ error: CONSOLE_MSG.passwordShort })
  .min(CONSOLE_RULES.passwordMin, CONSOLE_MSG.passwordShort)
  .max(CONSOLE_RULES.passwordMax, CONSOLE_MSG.passwordLong);

/** POST /api/console/welcome: the one-time link's token and the operator's new password. */
export const ZConsoleWelcomeRequest = z.object({
  token: z.string({ error: CONSOLE_MSG.welcomeInvalid }).min(10, CONSOLE_MSG.welcomeInvalid).max(200, CONSOLE_MSG.welcomeInvalid),
  password: ZConsolePassword,
});
export type TConsoleWelcomeRequest = z.input<typeof ZConsoleWelcomeRequest>;

/** The second factor, answered once: the secret for an authenticator app (also as an otpauth:// URL for a QR code) and the recovery codes. */
export const ZConsoleWelcomeResponse = z.object({
  totpSecret: z.string(),
  otpauthUrl: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type TConsoleWelcomeResponse = z.infer<typeof ZConsoleWelcomeResponse>;

/** POST /api/console/login: `code` is the authenticator's 6 digits, or one of the recovery codes (each works once). */
export const ZConsoleLoginRequest = z.object({
  email: z.string({ error: CONSOLE_MSG.signInFailed }).trim().min(3, CONSOLE_MSG.signInFailed).max(254, CONSOLE_MSG.signInFailed),
  password: z
    .string({ error: CONSOLE_MSG.signInFailed })
    .min(1, CONSOLE_MSG.signInFailed)
    .max(CONSOLE_RULES.passwordMax, CONSOLE_MSG.signInFailed),
  code: z
    .string({ error: CONSOLE_MSG.codeRequired })
    .trim()
    .min(CONSOLE_RULES.codeDigits, CONSOLE_MSG.codeRequired)
    .max(40, CONSOLE_MSG.codeRequired),
});
export type TConsoleLoginRequest = z.input<typeof ZConsoleLoginRequest>;
export const ZConsoleLoginResponse = z.object({ token: z.string() });

/** GET /api/console/me: the signed-in operator. */
export const ZConsoleMeResponse = z.object({ operator: z.object({ _id: z.string(), email: z.string() }) });

/** One entry of the audit log: what was done, on whom, why, when, by whom, with the state before and after. */
export const ZAuditEntry = z.object({
  _id: z.string(),
  at: z.string(),
  /** The operator who did it, or null for the command line (adding and removing operators). */
  operatorId: z.string().nullable(),
  operatorEmail: z.string().nullable(),
  action: z.string(),
  targetKind: z.string(),
  targetId: z.string().nullable(),
  reason: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

/** GET /api/console/audit?action=&operatorId=&targetId=&before=&format=csv: newest first. */
export const ZAuditQuery = z.object({
  action: z.string().max(64).optional(),
  operatorId: z.string().max(64).optional(),
  targetId: z.string().max(64).optional(),
  /** Entries before this one's time (ISO), for the next page. */
  before: z.iso.datetime({ offset: true, error: 'Give a time such as 2026-11-28T10:00:00Z' }).optional(),
  limit: z.coerce.number().int().min(1).max(CONSOLE_RULES.auditPageMax).optional(),
  format: z.enum(['json', 'csv']).optional(),
});
export const ZAuditResponse = z.object({ entries: z.array(ZAuditEntry) });
export type TAuditResponse = z.infer<typeof ZAuditResponse>;

/** Why an operator acts: required on every action that changes someone's account or content. */
export const ZOperatorReason = z.object({
  reason: z
    .string({ error: 'Give a reason: it is kept in the audit log' })
    .trim()
    .min(3, 'Give a reason: it is kept in the audit log')
    .max(500, 'Keep the reason under 500 characters'),
});
export type TOperatorReason = z.input<typeof ZOperatorReason>;

export const PERSON_STATUSES = ['active', 'unverified', 'suspended', 'deleted'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

/** GET /api/console/people?q=&role=&status=: by name, e-mail or city; newest first, 50 at most. */
export const ZPeopleQuery = z.object({
  q: z.string().trim().max(100, 'Search with at most 100 characters').optional(),
  role: z.enum(['user', 'trainer'], { error: 'Choose user or trainer' }).optional(),
  status: z.enum(PERSON_STATUSES, { error: 'Choose active, unverified, suspended or deleted' }).optional(),
});
export type TPeopleQuery = z.input<typeof ZPeopleQuery>;

/** One person as the console lists them. */
export const ZPersonSummary = z.object({
  _id: z.string(),
  role: z.enum(['user', 'trainer']),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  city: z.string(),
  status: z.enum(PERSON_STATUSES),
  createdAt: z.string(),
  /** Open reports against their reviews, messages or profile. */
  openReports: z.number().int(),
});
export type TPersonSummary = z.infer<typeof ZPersonSummary>;
export const ZPeopleResponse = z.object({ people: z.array(ZPersonSummary) });
export type TPeopleResponse = z.infer<typeof ZPeopleResponse>;

/** GET /api/console/people/:id: a person's page. */
export const ZPersonDetail = ZPersonSummary.extend({
  phone: z.string(),
  title: z.string(),
  description: z.string(),
  picture: z.string(),
  emailVerified: z.boolean(),
  suspendedAt: z.string().nullable(),
  /** What the person reads when they try to sign in while suspended. */
  suspensionReason: z.string().nullable(),
  profileHidden: z.boolean(),
  /** Trainers: the session price, the rating of visible reviews. */
  priceCents: z.number().int().nullable(),
  ratingAvg: z.number(),
  ratingCount: z.number().int(),
});
export type TPersonDetail = z.infer<typeof ZPersonDetail>;

export const ZPersonBooking = z.object({
  _id: z.string(),
  /** The other side of the session. */
  withId: z.string(),
  withName: z.string(),
  startsAt: z.string(),
  status: z.string(),
  priceCents: z.number().int(),
});
export const ZPersonPayment = z.object({
  _id: z.string(),
  bookingId: z.string().nullable(),
  amountCents: z.number().int(),
  refundedCents: z.number().int(),
  status: z.string(),
  createdAt: z.string(),
});
export const ZPersonReview = z.object({
  _id: z.string(),
  trainerId: z.string(),
  userId: z.string(),
  /** Written by the person, or about them (a trainer). */
  by: z.enum(['person', 'other']),
  rating: z.number().int(),
  comment: z.string(),
  hidden: z.boolean(),
  createdAt: z.string(),
});

/** A reason for a report, from a short list. */
export const REPORT_REASONS = ['spam', 'harassment', 'false-information', 'inappropriate', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_WORDS: Record<ReportReason, string> = {
  spam: 'Spam or advertising',
  harassment: 'Harassment or hate',
  'false-information': 'False or misleading',
  inappropriate: 'Inappropriate content',
  other: 'Something else',
};
export const REPORT_KINDS = ['review', 'message', 'profile'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_STATUSES = ['open', 'hidden', 'restored', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Reports from this many different people hide an item until an operator looks. */
export const REPORTS_TO_HIDE = 3;

/** One report as operators see it, with the item it is about. */
export const ZConsoleReport = z.object({
  _id: z.string(),
  kind: z.enum(REPORT_KINDS),
  itemId: z.string(),
  reason: z.enum(REPORT_REASONS),
  note: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: z.string(),
  reporterId: z.string(),
  reporterName: z.string(),
  /** Whose content it is. */
  subjectId: z.string(),
  subjectName: z.string(),
  /** What was reported, as it reads now (a review's comment and stars, a message, a profile's title and description). */
  itemText: z.string(),
  itemRating: z.number().int().nullable(),
  itemHidden: z.boolean(),
  /** Reports of this item from different people, open or not. */
  itemReports: z.number().int(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
});
export type TConsoleReport = z.infer<typeof ZConsoleReport>;

/** GET /api/console/reports?status=open: oldest first (the queue), 100 at most. */
export const ZConsoleReportsQuery = z.object({
  status: z.enum(REPORT_STATUSES, { error: 'Choose open, hidden, restored or dismissed' }).optional(),
  subjectId: z.string().max(64).optional(),
});
export const ZConsoleReportsResponse = z.object({ reports: z.array(ZConsoleReport) });
export type TConsoleReportsResponse = z.infer<typeof ZConsoleReportsResponse>;

/** POST /api/console/reports/:id/hide|restore|dismiss: decides the report's item, closing every open report of it. */
export const ZConsoleReportDecisionResponse = z.object({ report: ZConsoleReport, message: z.string() });
export type TConsoleReportDecisionResponse = z.infer<typeof ZConsoleReportDecisionResponse>;

export const ZPersonPageResponse = z.object({
  person: ZPersonDetail,
  bookings: z.array(ZPersonBooking),
  payments: z.array(ZPersonPayment),
  reviews: z.array(ZPersonReview),
  reports: z.array(ZConsoleReport),
  audit: z.array(ZAuditEntry),
});
export type TPersonPageResponse = z.infer<typeof ZPersonPageResponse>;

/** POST /api/console/people/:id/suspend|restore|delete: the person as they are now. */
export const ZPersonActionResponse = z.object({ person: ZPersonDetail, message: z.string() });
export type TPersonActionResponse = z.infer<typeof ZPersonActionResponse>;

export const PEOPLE_MSG = {
  notFound: 'There is no such person',
  suspended: 'Suspended. Their sessions end and upcoming paid sessions are refunded in full.',
  alreadySuspended: 'This account is already suspended',
  restored: 'Restored. They can sign in again.',
  notSuspended: 'This account is not suspended',
  deleted: 'Deleted. Their upcoming paid sessions are refunded in full.',
  alreadyDeleted: 'This account is already deleted',
} as const;

export const REPORT_MSG = {
  notFound: 'There is no such report',
  itemNotFound: 'We could not find what you reported',
  own: 'You cannot report your own content',
  already: 'You already reported this. An operator will look at it.',
  received: 'Thank you. An operator will look at it, and we will tell you what we decided.',
  hidden: 'Hidden. Only its author and operators see it now.',
  restored: 'Restored. Everyone sees it again.',
  dismissed: 'Dismissed. It stays as it is.',
  closed: 'This report was already decided',
} as const;

/** The words a suspended person reads when they try to sign in. */
export const suspendedMessage = (reason: string) =>
  `Your account is suspended: ${reason}. Write to support if you think this is a mistake.`;

/** POST /api/console/bookings/:id/refund: `amount` in dollars (as every amount of the API); without it, all that is left. */
export const ZConsoleRefundRequest = ZOperatorReason.extend({
  amount: z
    .number({ error: 'Give the amount to refund in dollars, such as 25.50' })
    .positive('Give an amount above zero')
    .multipleOf(0.01, 'Give the amount in dollars and cents, such as 25.50')
    .optional(),
});
export type TConsoleRefundRequest = z.input<typeof ZConsoleRefundRequest>;
export const ZConsoleRefundResponse = z.object({
  refund: z.object({
    /** The refund's id: a repeated request (the same `Idempotency-Key`, or the same body) answers the same one. */
    refundId: z.string(),
    bookingId: z.string(),
    /** Dollars given back by this refund. */
    amount: z.number(),
    /** completed: the provider made it; pending: it did not answer yet, and a job finishes it. */
    status: z.enum(['completed', 'pending']),
    /** Dollars of the payment given back so far (this refund included once completed) and still left. */
    refundedTotal: z.number(),
    left: z.number(),
  }),
  message: z.string(),
});
export type TConsoleRefundResponse = z.infer<typeof ZConsoleRefundResponse>;

/** GET /api/console/bookings?q=&status=: by booking id, or a person's name or e-mail; newest first, 50 at most. */
export const ZConsoleBookingsQuery = z.object({
  q: z.string().trim().max(100, 'Search with at most 100 characters').optional(),
  status: z
    .enum(['pending', 'confirmed', 'completed', 'cancelled', 'refunded', 'expired', 'no-show'], {
      error: 'Choose a booking status',
    })
    .optional(),
});
export type TConsoleBookingsQuery = z.output<typeof ZConsoleBookingsQuery>;
export const ZConsoleBooking = z.object({
  _id: z.string(),
  userId: z.string(),
  userName: z.string(),
  trainerId: z.string(),
  trainerName: z.string(),
  startsAt: z.string(),
  status: z.string(),
  /** Dollars. */
  price: z.number(),
  /** How it was paid: a card payment through the provider, a package or weekly-series balance, or not at all. */
  paidWith: z.enum(['card', 'balance', 'unpaid']),
  /** Dollars of the card payment given back so far, and what is left to refund (0 without a card payment). */
  refunded: z.number(),
  refundable: z.number(),
  disputed: z.boolean(),
});
export type TConsoleBooking = z.infer<typeof ZConsoleBooking>;
export const ZConsoleBookingsResponse = z.object({ bookings: z.array(ZConsoleBooking) });
export type TConsoleBookingsResponse = z.infer<typeof ZConsoleBookingsResponse>;

/** GET /api/console/ledger: the ledger check run now (docs/decisions/042-money-ledger.md#unknown-outcomes). */
export const ZConsoleLedgerResponse = z.object({
  checkedAt: z.string(),
  differences: z.array(
    z.object({
      kind: z.string(),
      message: z.string(),
      key: z.string().optional(),
      bookingId: z.string().nullable().optional(),
      orderId: z.string().optional(),
      account: z.string().optional(),
    }),
  ),
});
export type TConsoleLedgerResponse = z.infer<typeof ZConsoleLedgerResponse>;

export const MONEY_MSG = {
  bookingNotFound: 'There is no such session',
  notCardPaid: 'Nothing was paid for this session, so there is nothing to refund.',
  nothingLeft: 'Nothing is left to refund on this session',
  tooMuch: (left: string) => `At most ${left} is left to refund on this session`,
  refunded: (amount: string) => `Refunded ${amount}. Both people are told by mail.`,
  pending: (amount: string) =>
    `A refund of ${amount} is requested. The payment provider did not answer yet; it is retried until it does.`,
  badKey: 'The Idempotency-Key header must be 1 to 255 printable characters (letters, digits, spaces and signs)',
  keyReused:
    'This Idempotency-Key was already used for a refund with another amount or reason. Open the refund again to send a new one.',
} as const;

/**
 * The `Idempotency-Key` request header of POST /api/console/bookings/:id/refund
 * (draft-ietf-httpapi-idempotency-key-header; docs/product.md#refunds-by-operators): the same key with
 * the same body is the same refund, answered again; with another body, refused.
 */
export const ZIdempotencyKey = z
  .string({ error: MONEY_MSG.badKey })
  .min(1, MONEY_MSG.badKey)
  .max(255, MONEY_MSG.badKey)
  .regex(/^[\x20-\x7e]+$/, MONEY_MSG.badKey);
