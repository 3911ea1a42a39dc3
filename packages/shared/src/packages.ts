import { z } from 'zod';

/**
 * Packages: a trainer sells a number of sessions for a total price; what a user bought is kept as
 * money on the ledger (a balance per user and trainer), not as credits (docs/product.md#packages).
 */
export const PACKAGE_RULES = {
  maxPackages: 3,
  minSessions: 2,
  maxSessions: 20,
  minValidityMonths: 1,
  maxValidityMonths: 12,
  /** Whole dollars, like a trainer's price. */
  maxPrice: 100_000,
  /** The reminder mail goes out this many days before a balance's end date. */
  remindDaysBefore: 14,
} as const;

export const PACKAGE_MSG = {
  saved: 'Your packages are saved',
  onlyTrainers: 'Only trainers sell packages',
  setPriceFirst: 'Set your price per session first: a package must cost less than its sessions one by one',
  tooMany: `Offer at most ${PACKAGE_RULES.maxPackages} packages`,
  notCheaper: (full: number) => `A package must cost less than its sessions one by one ($${full})`,
  sessions: `A package has ${PACKAGE_RULES.minSessions} to ${PACKAGE_RULES.maxSessions} sessions`,
  price: 'Enter the package’s total price in whole dollars',
  validity: `Valid for ${PACKAGE_RULES.minValidityMonths} to ${PACKAGE_RULES.maxValidityMonths} months, or without an end date`,
  notFound: 'This package is no longer offered',
  haveBalance: 'You still have sessions of a package with this trainer: use or refund them before buying another',
  noBalance: 'You have no package balance with this trainer',
  balanceUsedUp: 'Your package with this trainer has no sessions left',
  balanceExpired: 'Your package with this trainer has expired',
  bookedFromBalance: 'Booked and paid from your package',
  returnedToBalance: 'Your booking is cancelled and the session is back in your package balance',
  refundStarted: 'Your unused balance is being refunded',
  refunded: (amount: string) => `${amount} of your unused balance is refunded`,
  nothingToRefund: 'There is no unused balance to refund',
  refundInProgress: 'Your unused balance is being refunded already',
} as const;

const whole = (message: string, min: number, max: number) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

export const ZTrainerPackageInput = z.object({
  sessions: whole(PACKAGE_MSG.sessions, PACKAGE_RULES.minSessions, PACKAGE_RULES.maxSessions),
  /** The total, in whole dollars. */
  price: whole(PACKAGE_MSG.price, 1, PACKAGE_RULES.maxPrice),
  validityMonths: whole(PACKAGE_MSG.validity, PACKAGE_RULES.minValidityMonths, PACKAGE_RULES.maxValidityMonths).nullable(),
});
export type TTrainerPackageInput = z.input<typeof ZTrainerPackageInput>;

/** PUT /api/trainer/packages: the trainer's packages as they are to be (an empty list offers none). */
export const ZPutPackagesRequest = z.object({
  packages: z
    .array(ZTrainerPackageInput, { error: 'Send the list of packages' })
    .max(PACKAGE_RULES.maxPackages, PACKAGE_MSG.tooMany),
});
export type TPutPackagesRequest = z.input<typeof ZPutPackagesRequest>;

/** A package as offered: dollars, like a trainer's price; `perSession` is the total over the sessions (rounded down to the cent). */
export const ZTrainerPackage = z.object({
  _id: z.string(),
  sessions: z.number(),
  price: z.number(),
  perSession: z.number(),
  validityMonths: z.number().nullable(),
});
export type TTrainerPackage = z.infer<typeof ZTrainerPackage>;
export const ZPackagesResponse = z.object({ message: z.string(), packages: z.array(ZTrainerPackage) });

/**
 * A user's balance with a trainer: money left of a package bought (dollars), what one session
 * takes of it, the sessions it still pays for, and when it expires (ISO; null: never).
 */
export const ZBalance = z.object({
  trainerId: z.string(),
  trainerFirstName: z.string(),
  trainerLastName: z.string(),
  amount: z.number(),
  perSession: z.number(),
  sessionsLeft: z.number(),
  sessions: z.number(),
  expiresAt: z.string().nullable(),
  /** `active`: pays for sessions; `refunding`: the rest is on its way back to the payer. */
  status: z.enum(['active', 'refunding']),
  /**
   * The balance's ledger entries, oldest first: `package` (bought, +), `redeem` (a session took its
   * part, −), `unredeem` (a cancelled session put it back, +), `refund` (the rest refunded, −),
   * `expire` (the rest went to the trainer on the end date, −); dollars; the session's start when one
   * is concerned.
   */
  entries: z.array(
    z.object({
      at: z.string(),
      kind: z.enum(['package', 'redeem', 'unredeem', 'refund', 'expire']),
      amount: z.number(),
      startsAt: z.string().nullable(),
    }),
  ),
});
export type TBalance = z.infer<typeof ZBalance>;
export const ZBalancesResponse = z.object({ balances: z.array(ZBalance) });
export const ZBalanceRefundResponse = z.object({ message: z.string(), refundedAmount: z.number() });
