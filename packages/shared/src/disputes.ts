import { z } from 'zod';
import { BOOKING_RULES } from './bookings';

/**
 * Disputes by rule (docs/decisions/047-disputes-by-rule.md): a user disputes a session within 48 hours
 * after its end; the policy frozen on the session decides where the facts decide, and only what the
 * rules cannot decide reaches an operator. A disputed session's payout waits until it is settled.
 */
export const DISPUTE_RULES = {
  /** A session can be disputed until this long after it ends. */
  hours: 48,
  noteMax: 1000,
} as const;

/**
 * The policy frozen on each session when it is booked (`bookings.policy`,
 * docs/decisions/052-frozen-session-policy.md): the hours to cancel for a full refund (and to move it),
 * to dispute it after its end, and for its trainer to mark a no-show after its end (no money moves).
 */
export type SessionPolicy = { version: number; cancelHours: number; disputeHours: number; noShowHours: number };
/** As stored: version 1 was frozen without `noShowHours`. */
export type StoredSessionPolicy = Omit<SessionPolicy, 'noShowHours'> & { noShowHours?: number };
/** Version 1, the terms of sessions booked before version 2 (and, with no policy stored, before policies were frozen). */
export const POLICY_V1 = { version: 1, cancelHours: 24, disputeHours: 48, noShowHours: 7 * 24 } as const satisfies SessionPolicy;
/** Version 2: version 1's terms with the no-show window frozen too. Today's rules; changing one makes a new version. */
const POLICY_V2 = {
  version: 2,
  cancelHours: BOOKING_RULES.cancelHours,
  disputeHours: DISPUTE_RULES.hours,
  noShowHours: BOOKING_RULES.noShowHours,
} as const satisfies SessionPolicy;
/** The policy frozen on the sessions booked now. */
export const CURRENT_POLICY: SessionPolicy = POLICY_V2;

/** A session's policy from what is stored on it: version 1's terms where it has none, or lacks a later term. */
export function sessionPolicy(stored: StoredSessionPolicy | null | undefined): SessionPolicy {
  const p = stored ?? POLICY_V1;
  return {
    version: p.version,
    cancelHours: p.cancelHours,
    disputeHours: p.disputeHours,
    noShowHours: p.noShowHours ?? POLICY_V1.noShowHours,
  };
}

export const DISPUTE_REASONS = ['trainer-absent', 'cut-short', 'other'] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];
export const DISPUTE_REASON_WORDS: Record<DisputeReason, string> = {
  'trainer-absent': 'The trainer did not come',
  'cut-short': 'The session was cut short',
  other: 'Something else',
};

/**
 * The rows of the rules table (the decision record's), each a `rule` a dispute is decided by:
 * too-late: opened after the window (closed, nothing refunded); refunded-already: the payment went
 * back in full before (closed); trainer-cancelled: the trainer cancelled and money is left (all of it
 * refunded); otherwise `operator` (the queue).
 */
export const DISPUTE_RULE_IDS = ['too-late', 'refunded-already', 'trainer-cancelled', 'operator'] as const;
export type DisputeRuleId = (typeof DISPUTE_RULE_IDS)[number];

export const DISPUTE_OUTCOMES = ['refund-full', 'refund-part', 'no-refund', 'closed'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/** POST /api/bookings/:id/dispute (the session's user). */
export const ZDisputeRequest = z.object({
  reason: z.enum(DISPUTE_REASONS, { error: 'Choose what went wrong' }),
  note: z
    .string({ error: 'Write what happened, or leave it empty' })
    .trim()
    .max(DISPUTE_RULES.noteMax, `Keep the note under ${DISPUTE_RULES.noteMax.toLocaleString('en-US')} characters`)
    .default(''),
});
export type TDisputeRequest = z.input<typeof ZDisputeRequest>;

/** A dispute as its user sees it. */
export const ZDispute = z.object({
  _id: z.string(),
  bookingId: z.string(),
  reason: z.enum(DISPUTE_REASONS),
  note: z.string(),
  createdAt: z.string(),
  status: z.enum(['open', 'decided']),
  /** Which row of the rules decided it, or 'operator'; null while open. */
  rule: z.enum(DISPUTE_RULE_IDS).nullable(),
  outcome: z.enum(DISPUTE_OUTCOMES).nullable(),
  /** Dollars refunded by the decision. */
  refunded: z.number().nullable(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
});
export type TDispute = z.infer<typeof ZDispute>;
export const ZDisputeResponse = z.object({ dispute: ZDispute, message: z.string() });
export type TDisputeResponse = z.infer<typeof ZDisputeResponse>;

/** A dispute in the operators' queue, with its session and people. */
export const ZConsoleDispute = ZDispute.extend({
  userId: z.string(),
  userName: z.string(),
  trainerId: z.string(),
  trainerName: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  bookingStatus: z.string(),
  /** Dollars paid by card, and what is left to refund. */
  paid: z.number(),
  refundable: z.number(),
});
export type TConsoleDispute = z.infer<typeof ZConsoleDispute>;
export const ZConsoleDisputesQuery = z.object({
  status: z.enum(['open', 'decided'], { error: 'Choose open or decided' }).optional(),
});
export const ZConsoleDisputesResponse = z.object({ disputes: z.array(ZConsoleDispute) });
export type TConsoleDisputesResponse = z.infer<typeof ZConsoleDisputesResponse>;

/** POST /api/console/disputes/:id/decide: `amount` (dollars) only with refund-part. */
export const ZDisputeDecision = z
  .object({
    outcome: z.enum(['refund-full', 'refund-part', 'no-refund'], { error: 'Choose full refund, part refund or no refund' }),
    amount: z.number().positive('Give an amount above zero').multipleOf(0.01, 'Give the amount in dollars and cents').optional(),
    reason: z
      .string({ error: 'Give a reason: the user and the trainer read it' })
      .trim()
      .min(3, 'Give a reason: the user and the trainer read it')
      .max(500, 'Keep the reason under 500 characters'),
  })
  .refine((d) => (d.outcome === 'refund-part') === (d.amount !== undefined), {
    message: 'Give an amount for a part refund, and only then',
    path: ['amount'],
  });
export type TDisputeDecision = z.input<typeof ZDisputeDecision>;
export const ZConsoleDisputeDecisionResponse = z.object({ dispute: ZConsoleDispute, message: z.string() });

export const DISPUTE_MSG = {
  notFound: 'There is no such session',
  notOver: 'You can dispute a session once it has ended. Before it starts, you can cancel or move it.',
  notPaid: 'Only a paid session can be disputed',
  already: 'You already disputed this session',
  disputeNotFound: 'There is no such dispute',
  decidedAlready: 'This dispute was already decided',
  opened:
    'Thank you. An operator will look at it and tell you both what they decided. The trainer’s payout for this session waits until then.',
  tooLate: (until: string) => `The time to dispute this session ended on ${until}, 48 hours after it ended.`,
  refundedAlready: 'This session was already refunded in full.',
  trainerCancelled: 'The trainer cancelled this session, so it is refunded in full.',
  decided: 'Decided. Both people are told by mail.',
} as const;
