import { z } from 'zod';
import { ZBalance } from './packages';
import { BOOKING_MSG } from './messages';
import { ZErrorCode } from './errors';

/** Booking rules of docs/product.md#booking-and-payment, in one place for the server and the browser. */
export const BOOKING_RULES = {
  /** A session is one hour. */
  sessionMinutes: 60,
  /** Slots are offered this many days ahead. */
  daysAhead: 14,
  /** A slot is held for the user this long while they pay. */
  holdMinutes: 10,
  /**
   * A confirmed session can be cancelled (and refunded) until this many hours before it starts: today's
   * rule, frozen on each session booked (`CURRENT_POLICY`); a session follows its own (`ZBooking.policy`).
   */
  cancelHours: 24,
  /** Its trainer may mark a paid session a no-show from its start until this many hours after its end (today's rule, frozen likewise). */
  noShowHours: 7 * 24,
  /** The reminder mail goes out this many hours before a session. */
  reminderHours: 24,
  /** At most this many unpaid holds per user at once, so nobody can block a trainer's week. */
  maxPendingHolds: 3,
  /**
   * A user whose hold on a slot ended unpaid (released, or run out) may hold that slot again only
   * this long after, so one account cannot keep a trainer's slots blocked by re-taking them; anyone
   * else may hold it at once.
   */
  holdCooldownMinutes: 10,
} as const;

export const DEFAULT_TIME_ZONE = 'Africa/Cairo';
export const CURRENCY = 'USD';

/**
 * The fee Spotter keeps of each paid session, in percent: the pricing page's Starter plan
 * ('10% fee per paid session'), the plan every trainer is on until plans can be bought.
 */
export const PLATFORM_FEE_PERCENT = 10;

/**
 * The zone's IANA name in its usual spelling (`america/new_york` → `America/New_York`), or undefined
 * when Intl does not know it. A valid name is kept as given where Intl would swap it for an older
 * alias (Asia/Kolkata stays Asia/Kolkata, not Asia/Calcutta).
 */
export function canonicalTimeZone(zone: string): string | undefined {
  if (!zone || zone.length > 64) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  const lower = zone.toLowerCase();
  const known =
    typeof Intl.supportedValuesOf === 'function'
      ? Intl.supportedValuesOf('timeZone').find((z) => z.toLowerCase() === lower)
      : undefined;
  return known ?? (resolved.toLowerCase() === lower ? resolved : zone);
}

const WEEKDAY_MSG = 'Choose a weekday from 0 (Sunday) to 6 (Saturday)';
const HOUR_MSG = 'Choose whole hours from 0 to 23';

/** Weekday 0 is Sunday (as in JavaScript); hours are the local start hours of one-hour slots. */
export const ZWeeklyHours = z.object({
  weekday: z.number({ error: WEEKDAY_MSG }).int(WEEKDAY_MSG).min(0, WEEKDAY_MSG).max(6, WEEKDAY_MSG),
  hours: z.array(z.number({ error: HOUR_MSG }).int(HOUR_MSG).min(0, HOUR_MSG).max(23, HOUR_MSG)).max(24, HOUR_MSG),
});

/** A trainer's booking policy (docs/product.md#booking-and-payment): notice and buffer before a slot is offered. */
export const AVAILABILITY_POLICY = {
  /** Slots starting sooner than this many hours from now are not offered. */
  minNoticeHours: { min: 1, max: 72, default: 12 },
  /** Minutes kept free between two sessions: a slot this close to a booked one is not offered. */
  bufferMinutes: [0, 15, 30] as const,
  /** At most this many date overrides are kept. */
  overridesMax: 120,
  locationTextMax: 200,
} as const;

export const SESSION_LOCATION_KINDS = ['address', 'client', 'online'] as const;
export type TSessionLocationKind = (typeof SESSION_LOCATION_KINDS)[number];

const NOTICE_MSG = `Choose a minimum notice from ${AVAILABILITY_POLICY.minNoticeHours.min} to ${AVAILABILITY_POLICY.minNoticeHours.max} hours`;
const BUFFER_MSG = 'Choose a buffer of 0, 15 or 30 minutes';
const DATE_MSG = 'Choose a date as YYYY-MM-DD';
const LOCATION_KIND_MSG = 'Choose where sessions take place: an address, the client’s home or online';

/** A calendar date (YYYY-MM-DD) that exists. */
export const ZIsoDate = z.string({ error: DATE_MSG }).refine((value) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}, DATE_MSG);

const ZHours = z.array(z.number({ error: HOUR_MSG }).int(HOUR_MSG).min(0, HOUR_MSG).max(23, HOUR_MSG)).max(24, HOUR_MSG);

/** One date's hours instead of its weekday's (local to the trainer's zone); an empty list is a day off. */
export const ZDateOverride = z.object({ date: ZIsoDate, hours: ZHours });
export type TDateOverride = z.infer<typeof ZDateOverride>;

/**
 * Where sessions take place, shown in the booking, the card, the mails and the `.ics` LOCATION:
 * `address` (text: the address), `client` (at the client's home; text: an optional area),
 * `online` (text: the meeting link, https).
 */
export const ZSessionLocation = z
  .object({
    kind: z.enum(SESSION_LOCATION_KINDS, { error: LOCATION_KIND_MSG }),
    text: z
      .string({ error: 'Describe the place' })
      .trim()
      .max(AVAILABILITY_POLICY.locationTextMax, `Keep the place under ${AVAILABILITY_POLICY.locationTextMax} characters`)
      .default(''),
  })
  .superRefine((loc, ctx) => {
    if (loc.kind === 'address' && !loc.text) ctx.addIssue({ code: 'custom', path: ['text'], message: 'Enter the address' });
    if (loc.kind === 'online' && !/^https:\/\/[^\s/$.?#][^\s]*$/i.test(loc.text))
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'Enter the meeting link, starting with https://' });
  });
export type TSessionLocation = z.output<typeof ZSessionLocation>;

/**
 * PUT /api/trainer/availability. Duplicate weekdays and hours are merged, overrides of one date too
 * (the last wins). A field left out keeps its saved value (a client that knows only `timeZone` and
 * `weekly` changes nothing else); `location: null` removes the place.
 */
export const ZAvailabilityRequest = z.object({
  timeZone: z
    .string({ error: BOOKING_MSG.badTimeZone })
    .trim()
    .default(DEFAULT_TIME_ZONE)
    .transform((zone, ctx) => {
      const canonical = canonicalTimeZone(zone);
      if (!canonical) {
        ctx.addIssue({ code: 'custom', message: BOOKING_MSG.badTimeZone });
        return z.NEVER;
      }
      return canonical;
    }),
  weekly: z.array(ZWeeklyHours).max(70).default([]),
  minNoticeHours: z
    .number({ error: NOTICE_MSG })
    .int(NOTICE_MSG)
    .min(AVAILABILITY_POLICY.minNoticeHours.min, NOTICE_MSG)
    .max(AVAILABILITY_POLICY.minNoticeHours.max, NOTICE_MSG)
    .optional(),
  bufferMinutes: z
    .number({ error: BUFFER_MSG })
    .refine((n) => (AVAILABILITY_POLICY.bufferMinutes as readonly number[]).includes(n), BUFFER_MSG)
    .optional(),
  overrides: z
    .array(ZDateOverride)
    .max(AVAILABILITY_POLICY.overridesMax, `At most ${AVAILABILITY_POLICY.overridesMax} dates can have their own hours`)
    .optional(),
  location: ZSessionLocation.nullable().optional(),
});
export type TAvailabilityRequest = z.input<typeof ZAvailabilityRequest>;

const ZAvailability = z.object({
  timeZone: z.string(),
  weekly: z.array(z.object({ weekday: z.number(), hours: z.array(z.number()) })),
  minNoticeHours: z.number(),
  bufferMinutes: z.number(),
  /** Dates from today on (in the trainer's zone), soonest first. */
  overrides: z.array(z.object({ date: z.string(), hours: z.array(z.number()) })),
  location: z.object({ kind: z.enum(SESSION_LOCATION_KINDS), text: z.string() }).nullable(),
});
export type TAvailability = z.infer<typeof ZAvailability>;
export const ZAvailabilityResponse = ZAvailability;

/** GET /api/trainers/:id/slots: start times of free one-hour slots, ISO in UTC, soonest first. */
export const ZSlotsResponse = z.object({ slots: z.array(z.string()), timeZone: z.string() });

/** `no-show`: the trainer marked that the client did not come (after the start; no money moves). */
export const BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled', 'refunded', 'expired', 'no-show'] as const;
export type TBookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * The cancellation, no-show and dispute policy frozen on a session when it was booked
 * (docs/decisions/052-frozen-session-policy.md): `SessionPolicy`, `POLICY_V1` and `CURRENT_POLICY` in disputes.ts.
 */
export const ZSessionPolicy = z.object({
  version: z.number().int(),
  /** Its user cancels it for a full refund (or moves it) until this many hours before it starts. */
  cancelHours: z.number(),
  /** Its user may dispute it until this many hours after it ends. */
  disputeHours: z.number(),
  /** Its trainer may mark it a no-show from its start until this many hours after its end; no money moves. */
  noShowHours: z.number(),
});

export const ZBooking = z.object({
  _id: z.string(),
  trainerId: z.string(),
  userId: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(BOOKING_STATUSES),
  /** Dollars, like a trainer's price. */
  price: z.number(),
  currency: z.string(),
  /** Until when an unpaid booking holds its slot; null once paid or released. */
  holdExpiresAt: z.string().nullable(),
  trainerFirstName: z.string(),
  trainerLastName: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  /** Whether the caller may cancel it now (and whether that refunds the payment). */
  canCancel: z.boolean(),
  isRefundable: z.boolean(),
  /**
   * Until when the user can cancel it for a full refund (ISO): the start minus its policy's
   * `cancelHours` (24 today), or null when that is already past or does not apply (a hold, a settled
   * booking). The session's trainer can cancel a confirmed session at any time, always with a full refund.
   */
  cancellableUntil: z.string().nullable(),
  /** The policy frozen on it when it was booked (version 1's for sessions from before policies were frozen). */
  policy: ZSessionPolicy,
  /** The trainer's time zone (IANA), in which the session is shown and mailed. */
  timeZone: z.string(),
  /** Where the session takes place (the trainer's default when it was booked), or null when never set. */
  location: z.object({ kind: z.enum(SESSION_LOCATION_KINDS), text: z.string() }).nullable(),
  /** Who cancelled a cancelled or refunded session, and the trainer's reason (shown to the client). */
  cancelledBy: z.enum(['user', 'trainer']).nullable(),
  cancelReason: z.string().nullable(),
  /** Whether the caller (the session's trainer) may mark it a no-show now: confirmed and started. */
  canMarkNoShow: z.boolean(),
  /**
   * Paid from a package balance: a cancellation returns it to the balance, not to the card. False for
   * a session of a weekly series paid by card (docs/product.md#standing-weekly-sessions).
   */
  paidFromBalance: z.boolean(),
  /** One of a standing weekly series (the same id for each of its sessions), or null. */
  seriesId: z.string().nullable(),
  /** When its user released it for resale (ISO), or null (docs/product.md#releasing-a-late-session). */
  releasedAt: z.string().nullable(),
  /** Whether the caller (its user) may release it now: paid, inside 24 hours, not started, not released. */
  canRelease: z.boolean(),
  /** Whether the caller (the session's user) may move it to another free slot now: paid and more than 24 hours ahead. */
  canReschedule: z.boolean(),
  /**
   * Until when its user may dispute it (ISO): a paid session that has ended, not disputed yet, until 48
   * hours after its end (docs/decisions/047-disputes-by-rule.md); null otherwise and for its trainer.
   */
  disputableUntil: z.string().nullable(),
  /** Its dispute, when there is one: open (an operator will decide), or decided. */
  disputeStatus: z.enum(['open', 'decided']).nullable(),
});
export type TBooking = z.infer<typeof ZBooking>;

const ISO_MSG = 'Choose a start time';
/** POST /api/bookings. The user comes from the token (docs/product.md#identity-from-the-token). */
export const ZCreateBookingRequest = z.object({
  trainerId: z.string({ error: 'Choose a trainer to book' }).min(1, 'Choose a trainer to book'),
  startsAt: z.iso.datetime({ offset: true, error: ISO_MSG }),
  /** `balance`: booked and paid at once from one's package balance with the trainer (201, confirmed). */
  payWith: z.enum(['balance'], { error: 'Pay with your package balance, or leave this out' }).optional(),
  /** A standing weekly series: the same weekday and hour for this many weeks (docs/product.md#standing-weekly-sessions). */
  weeks: z.union([z.literal(4), z.literal(8), z.literal(12)], { error: 'Book 4, 8 or 12 weeks' }).optional(),
});
/**
 * A standing weekly series: the weeks that were free (paid at once from a package balance with
 * `payWith: 'balance'`, otherwise held for paying together with `POST /api/orders { seriesId }`), and
 * the weeks' times that were not free (ISO, with why).
 */
export const ZSeriesResponse = z.object({
  /** The series' id (the bookings' `seriesId`). */
  seriesId: z.string(),
  bookings: z.array(ZBooking),
  unavailable: z.array(z.object({ startsAt: z.string(), reason: z.enum(['taken', 'not-offered', 'no-balance-left']) })),
});
export type TSeriesResponse = z.infer<typeof ZSeriesResponse>;
export type TCreateBookingRequest = z.input<typeof ZCreateBookingRequest>;
export const ZBookingResponse = z.object({ booking: ZBooking });
export const ZBookingsResponse = z.object({ bookings: z.array(ZBooking) });
export const ZCancelBookingResponse = z.object({ message: z.string(), booking: ZBooking });
/**
 * POST /api/bookings/:id/reschedule: its user moves a paid session more than 24 hours ahead to another
 * free slot of the same trainer; no money moves (docs/product.md#moving-a-session).
 */
export const ZRescheduleBookingRequest = z.object({
  startsAt: z.iso.datetime({ offset: true, error: ISO_MSG }),
});
/** POST /api/bookings/:id/release: its user gives a paid session inside 24 hours back for resale. */
export const ZReleaseBookingResponse = z.object({ message: z.string(), booking: ZBooking });
export type TRescheduleBookingRequest = z.input<typeof ZRescheduleBookingRequest>;
export const ZRescheduleBookingResponse = z.object({ message: z.string(), booking: ZBooking });
export const CANCEL_REASON_MAX = 500;
/**
 * POST /api/bookings/:id/cancel. A body is optional (the spec's client sends none); the trainer's
 * reason is shown to the client in the app and the mail.
 */
export const ZCancelBookingRequest = z
  .object({
    reason: z
      .string({ error: 'Write the reason as text' })
      .trim()
      .max(CANCEL_REASON_MAX, `Keep the reason under ${CANCEL_REASON_MAX} characters`)
      .optional(),
  })
  .optional();
/** POST /api/bookings/:id/no-show (the session's trainer, after it started). */
export const ZNoShowResponse = z.object({ message: z.string(), booking: ZBooking });

/**
 * POST /api/orders. The spec's `cart` is accepted and ignored: the amount always comes from the
 * trainer's price on the server (docs/product.md#booking-and-payment); any other field (an amount, a product id) is dropped.
 */
/**
 * POST /api/orders: the order of one's held booking (`bookingId`), of the held weeks of one's weekly
 * series (`seriesId`, docs/product.md#standing-weekly-sessions), or of a package to buy (`packageId`,
 * docs/product.md#packages); one of the three.
 */
export const ZCreateOrderRequest = z
  .object({
    bookingId: z.string({ error: 'Choose a booking to pay for' }).min(1, 'Choose a booking to pay for').optional(),
    seriesId: z.string({ error: 'Choose a weekly series to pay for' }).min(1, 'Choose a weekly series to pay for').optional(),
    packageId: z.string({ error: 'Choose a package to buy' }).min(1, 'Choose a package to buy').optional(),
    cart: z.unknown().optional(),
  })
  .refine((o) => [o.bookingId, o.seriesId, o.packageId].filter((v) => v !== undefined).length === 1, {
    message: 'Choose a booking to pay for',
    path: ['bookingId'],
  });
export const ZMoney = z.object({ currency_code: z.string(), value: z.string() });
export const ZOrderResponse = z.object({ id: z.string(), status: z.string(), amount: ZMoney });
export type TOrderResponse = z.infer<typeof ZOrderResponse>;

/** The capture answer as the spec reads it: purchase_units[0].payments.captures[0]. */
export const ZCaptureResponse = z.object({
  id: z.string(),
  status: z.string(),
  purchase_units: z.array(
    z.object({
      reference_id: z.string().optional(),
      payments: z.object({ captures: z.array(z.object({ id: z.string(), status: z.string(), amount: ZMoney.optional() })) }),
    }),
  ),
  booking: ZBooking.optional(),
  /** A package's capture: the balance it bought. */
  balance: ZBalance.optional(),
  /** A weekly series' capture: its sessions as they are now (the paid ones confirmed). */
  bookings: z.array(ZBooking).optional(),
});
export type TCaptureResponse = z.infer<typeof ZCaptureResponse>;

/** A decline as the provider gave it (`details[0].issue` INSTRUMENT_DECLINED restarts the flow). */
export const ZPaymentErrorResponse = z.object({
  message: z.string(),
  statusCode: z.number(),
  code: ZErrorCode,
  name: z.string().optional(),
  details: z.array(z.object({ issue: z.string(), description: z.string().optional(), field: z.string().optional() })).optional(),
  debug_id: z.string().optional(),
});
export type TPaymentErrorResponse = z.infer<typeof ZPaymentErrorResponse>;

export const ZPaymentsConfigResponse = z.object({
  provider: z.enum(['paypal', 'demo']),
  clientId: z.string().optional(),
  currency: z.string(),
  /** Shown on the checkout dialog of the demo provider. */
  label: z.string().optional(),
});

export const ZPayment = z.object({
  _id: z.string(),
  bookingId: z.string(),
  trainerId: z.string(),
  userId: z.string(),
  trainerFirstName: z.string(),
  trainerLastName: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  startsAt: z.string(),
  provider: z.string(),
  orderId: z.string(),
  captureId: z.string(),
  status: z.enum(['completed', 'refunded']),
  currency: z.string(),
  /** Dollars. `fee` is Spotter's share and `net` the trainer's; a refunded payment has neither. */
  amount: z.number(),
  fee: z.number(),
  net: z.number(),
  /** Given back so far: all of it once refunded; a part after a part refund (an operator's, a dispute's, or one made at the provider: then fee and net are what is kept). */
  refunded: z.number().optional(),
  paidAt: z.string(),
  refundedAt: z.string().nullable(),
});
export type TPayment = z.infer<typeof ZPayment>;

/**
 * GET /api/payments. For a user: what they paid. For a trainer: their earnings. `charged` is the sum
 * of every row, `refunded` what went back of them (whole or in part), `fees` and `net` what the rows
 * kept, so charged = refunded + fees + net.
 */
export const ZPaymentsResponse = z.object({
  role: z.enum(['user', 'trainer']),
  feePercent: z.number(),
  currency: z.string(),
  payments: z.array(ZPayment),
  totals: z.object({
    count: z.number(),
    charged: z.number(),
    refunded: z.number(),
    fees: z.number(),
    net: z.number(),
    /**
     * Trainers only, each equal to the ledger (docs/decisions/042-money-ledger.md): their share of
     * sessions paid and not yet due (`pending`), due and waiting for a payout (`payable`, money in
     * a payout not settled yet included), paid out, and refunded to clients.
     */
    pending: z.number().optional(),
    payable: z.number().optional(),
    paidOut: z.number().optional(),
  }),
  /** Confirmed sessions still to come, and what they are worth. */
  upcoming: z.object({ count: z.number(), amount: z.number(), bookings: z.array(ZBooking) }),
});
export type TPaymentsResponse = z.infer<typeof ZPaymentsResponse>;
