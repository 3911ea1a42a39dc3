import { z } from 'zod';
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
  /** A confirmed session can be cancelled (and refunded) until this many hours before it starts. */
  cancelHours: 24,
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

/** PUT /api/trainer/availability. Duplicate weekdays and hours are merged. */
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
});
export type TAvailabilityRequest = z.input<typeof ZAvailabilityRequest>;

const ZAvailability = z.object({
  timeZone: z.string(),
  weekly: z.array(z.object({ weekday: z.number(), hours: z.array(z.number()) })),
});
export type TAvailability = z.infer<typeof ZAvailability>;
export const ZAvailabilityResponse = ZAvailability;

/** GET /api/trainers/:id/slots: start times of free one-hour slots, ISO in UTC, soonest first. */
export const ZSlotsResponse = z.object({ slots: z.array(z.string()), timeZone: z.string() });

export const BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled', 'refunded', 'expired'] as const;
export type TBookingStatus = (typeof BOOKING_STATUSES)[number];

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
});
export type TBooking = z.infer<typeof ZBooking>;

const ISO_MSG = 'Choose a start time';
/** POST /api/bookings. The user comes from the token (docs/product.md#identity-from-the-token). */
export const ZCreateBookingRequest = z.object({
  trainerId: z.string({ error: 'Choose a trainer to book' }).min(1, 'Choose a trainer to book'),
  startsAt: z.iso.datetime({ offset: true, error: ISO_MSG }),
});
export type TCreateBookingRequest = z.input<typeof ZCreateBookingRequest>;
export const ZBookingResponse = z.object({ booking: ZBooking });
export const ZBookingsResponse = z.object({ bookings: z.array(ZBooking) });
export const ZCancelBookingResponse = z.object({ message: z.string(), booking: ZBooking });

/**
 * POST /api/orders. The spec's `cart` is accepted and ignored: the amount always comes from the
 * trainer's price on the server (docs/product.md#booking-and-payment); any other field (an amount, a product id) is dropped.
 */
export const ZCreateOrderRequest = z.object({
  bookingId: z.string({ error: 'Choose a booking to pay for' }).min(1, 'Choose a booking to pay for'),
  cart: z.unknown().optional(),
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
  paidAt: z.string(),
  refundedAt: z.string().nullable(),
});
export type TPayment = z.infer<typeof ZPayment>;

/**
 * GET /api/payments. For a user: what they paid. For a trainer: their earnings. `charged` is the sum
 * of every row, `refunded` of refunded rows, `fees` and `net` of the rows still paid, so
 * charged = refunded + fees + net.
 */
export const ZPaymentsResponse = z.object({
  role: z.enum(['user', 'trainer']),
  feePercent: z.number(),
  currency: z.string(),
  payments: z.array(ZPayment),
  totals: z.object({ count: z.number(), charged: z.number(), refunded: z.number(), fees: z.number(), net: z.number() }),
  /** Confirmed sessions still to come, and what they are worth. */
  upcoming: z.object({ count: z.number(), amount: z.number(), bookings: z.array(ZBooking) }),
});
export type TPaymentsResponse = z.infer<typeof ZPaymentsResponse>;
