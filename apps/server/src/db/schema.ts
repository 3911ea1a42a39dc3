import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  primaryKey,
  smallint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The predicate of every partial index on trainers (as migrations 0001 and 0003 wrote it, and 0023
 * narrowed to trainers neither suspended nor with a hidden profile, docs/product.md#the-operator-console).
 */
const TRAINER_INDEX_PREDICATE = sql.raw(
  `role = 'trainer' and deleted_at is null and email_verified_at is not null and suspended_at is null and profile_hidden_at is null`,
);

/**
 * A trainer anyone may see: the index predicate word for word (so the planner can use the indexes)
 * and a price, which a trainer signed in with Google has not set yet. The list's b-tree indexes
 * hold the price (key or INCLUDE), so a page is still found by an index-only scan.
 */
export const LISTED_TRAINER = sql.raw(
  `role = 'trainer' and deleted_at is null and email_verified_at is not null and suspended_at is null and profile_hidden_at is null and price_cents is not null`,
);

/**
 * Users and trainers share one table: they have the same fields, log in the same way and
 * differ by role and a few trainer columns (docs/decisions/002-one-accounts-table.md).
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    role: text('role', { enum: ['user', 'trainer'] }).notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull().default(''),
    gender: text('gender', { enum: ['male', 'female'] }).notNull(),
    age: integer('age').notNull(),
    height: integer('height').notNull(),
    weight: integer('weight').notNull(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    city: text('city').notNull().default(''),
    country: text('country').notNull().default('Egypt'),
    website: text('website').notNull().default(''),
    picture: text('picture').notNull().default(''),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    tokenVersion: integer('token_version').notNull().default(0),
    notifyAccount: boolean('notify_account').notNull().default(true),
    notifyMarketing: boolean('notify_marketing').notNull().default(false),
    // trainer columns; null for users
    priceCents: integer('price_cents'),
    /** Where a trainer's payouts go: a PayPal account's e-mail (docs/decisions/042-money-ledger.md). */
    payoutEmail: text('payout_email'),
    ratingAvg: numeric('rating_avg', { precision: 3, scale: 2, mode: 'number' }).notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    /** What "Best rated" sorts by: the Bayesian average (docs/decisions/016-bayesian-rating.md); 0 without reviews. */
    ratingScore: numeric('rating_score', { precision: 5, scale: 4, mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * An operator suspended the account (docs/product.md#suspending-an-account): no sign-in (the
     * reason is shown), every token ended, a trainer unlisted. Null again when restored.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspensionReason: text('suspension_reason'),
    /** An operator hid a reported trainer's profile (docs/product.md#reports-and-moderation): unlisted until restored. */
    profileHiddenAt: timestamp('profile_hidden_at', { withTimezone: true }),
    /**
     * The last day of the trainer's latest approved certificate (docs/product.md#verified-coaches):
     * a 'Verified coach' through that day; kept by the certificates module, null without one.
     */
    verifiedUntil: date('verified_until', { mode: 'string' }),
    /**
     * What the list's `q` matches, lower-cased; written by the database (migration 0010,
     * docs/decisions/006-trainer-list-speed.md).
     */
    searchText: text('search_text').generatedAlwaysAs(
      (): SQL =>
        sql`lower(${accounts.firstName} || ' ' || ${accounts.lastName} || ' ' || ${accounts.title} || ' ' || ${accounts.description})`,
    ),
  },
  (t) => [
    uniqueIndex('accounts_role_email_uq').on(t.role, sql`lower(${t.email})`),
    // The list's indexes also INCLUDE price, rating, gender, city and created_at (city too where the
    // key is lower(city): an index-only scan needs the column itself) (added by hand in
    // migration 0001; drizzle-kit cannot write INCLUDE), so a page is found by an index-only scan
    // and only its 24 rows are read (docs/decisions/006-trainer-list-speed.md). A search filters
    // inside an index too: the city ones and the three search_* ones INCLUDE search_text (migration 0010).
    index('accounts_trainer_rating_idx').on(t.ratingScore.desc(), t.id).where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_price_idx').on(t.priceCents, t.id).where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_newest_idx').on(t.createdAt.desc(), t.id).where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_city_idx')
      .on(sql`lower(${t.city})`, t.ratingScore.desc(), t.id)
      .where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_city_price_idx')
      .on(sql`lower(${t.city})`, t.priceCents, t.id)
      .where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_search_idx').using('gin', t.searchText.op('gin_trgm_ops')).where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_search_rating_idx').on(t.ratingScore.desc(), t.id).where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_search_price_idx').on(t.priceCents, t.id).where(TRAINER_INDEX_PREDICATE),
    index('accounts_trainer_search_newest_idx').on(t.createdAt.desc(), t.id).where(TRAINER_INDEX_PREDICATE),
    check('accounts_trainer_price_ck', sql`${t.role} <> 'trainer' or ${t.priceCents} >= 10000`),
  ],
);

/**
 * One-time links mailed to people: e-mail verification and password reset. Only the hash is kept.
 * A link is bound to the address it was mailed to: it works only while that is still the
 * account's address (migration 0004).
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_tokens_hash_uq').on(t.tokenHash), index('account_tokens_account_idx').on(t.accountId)],
);

/** One review per user per trainer; posting again edits it (docs/product.md#reviews). */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    comment: text('comment').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Hidden by an operator or by three reports (docs/product.md#reports-and-moderation): shown only
     * to its author and operators, and left out of the trainer's rating.
     */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('reviews_trainer_user_uq').on(t.trainerId, t.userId),
    index('reviews_trainer_created_idx').on(t.trainerId, t.createdAt.desc()),
    check('reviews_rating_ck', sql`${t.rating} between 1 and 5`),
  ],
);

export const favourites = pgTable(
  'favourites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.trainerId] })],
);

export const newsletterSubscribers = pgTable('newsletter_subscribers', {
  email: text('email').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Uploaded photos, re-encoded, addressed by the SHA-256 of their bytes (docs/product.md#photos). */
export const images = pgTable(
  'images',
  {
    sha256: text('sha256').notNull(),
    mime: text('mime').notNull(),
    bytes: bytea('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // the same bytes uploaded by two people are two rows, so deleting one account keeps the other's
  (t) => [primaryKey({ columns: [t.sha256, t.ownerId] }), index('images_owner_idx').on(t.ownerId)],
);

/** Each saved weight is a point of the user's weight chart. */
export const weightEntries = pgTable(
  'weight_entries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    weight: integer('weight').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('weight_entries_account_idx').on(t.accountId, t.recordedAt)],
);

/**
 * Chat messages: one conversation is one user and one trainer. `seq` orders them: messages into one
 * trainer's inbox are inserted under a per-trainer lock, so `seq` order is commit order there and
 * `after=<id>` never skips a message that committed late.
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    senderRole: text('sender_role', { enum: ['user', 'trainer'] }).notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** Set when the unread-message mail sweep claimed this message (whether or not a mail went out). */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    /** Hidden by an operator or by three reports (docs/product.md#reports-and-moderation): shown only to its sender and operators. */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    /** The sender client's id for it (docs/product.md#offline): a retried send answers this row. */
    clientMessageId: uuid('client_message_id'),
    /** Set when a process pushed it to an open socket of its recipient: then no Web Push goes out for it. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('messages_seq_uq').on(t.seq),
    uniqueIndex('messages_client_id_uq')
      .on(t.userId, t.trainerId, t.senderRole, t.clientMessageId)
      .where(sql`client_message_id is not null`),
    index('messages_conversation_idx').on(t.trainerId, t.userId, t.seq),
    index('messages_trainer_seq_idx').on(t.trainerId, t.seq),
    index('messages_user_idx').on(t.userId, t.trainerId, t.seq),
    index('messages_unmailed_idx')
      .on(t.createdAt)
      .where(sql`read_at is null and mailed_at is null`),
    check('messages_sender_role_ck', sql`${t.senderRole} in ('user', 'trainer')`),
    check('messages_body_ck', sql`char_length(${t.body}) between 1 and 2000`),
  ],
);

/**
 * A trainer's weekly hours (docs/product.md#booking-and-payment): `weekly` is [{ weekday 0-6 (Sunday 0), hours [0-23] }],
 * local to `time_zone`. One row per trainer, replaced as a whole.
 */
export const availability = pgTable('availability', {
  trainerId: uuid('trainer_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  timeZone: text('time_zone').notNull().default('Africa/Cairo'),
  weekly: jsonb('weekly').$type<Array<{ weekday: number; hours: number[] }>>().notNull().default([]),
  /** Slots starting sooner than this are not offered (docs/product.md#booking-and-payment). */
  minNoticeHours: integer('min_notice_hours').notNull().default(12),
  /** Minutes kept free before and after a booked session. */
  bufferMinutes: integer('buffer_minutes').notNull().default(0),
  /** A date's own hours instead of its weekday's (local dates in the trainer's zone); [] hours: a day off. */
  overrides: jsonb('overrides').$type<Array<{ date: string; hours: number[] }>>().notNull().default([]),
  /** Where sessions take place; null when never set. */
  location: jsonb('location').$type<{ kind: 'address' | 'client' | 'online'; text: string }>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each listed trainer's free slots as the booking dialog offers them (the bookings module's own
 * computation), kept by the trainers module for the list's availability filter, its `soonest` sort
 * and `nextFreeAt` (docs/decisions/040-finding-free-trainers.md). `offered_until`: the slot's start
 * less the trainer's minimum notice, past which it is no longer offered; `local_date`, `local_hour`
 * and `day_starts_at` (the instant the local date begins): in the trainer's zone. Not a source of
 * truth: rebuilt from availability and bookings whenever they change.
 */
export const trainerFreeSlots = pgTable(
  'trainer_free_slots',
  {
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    offeredUntil: timestamp('offered_until', { withTimezone: true }).notNull(),
    localDate: date('local_date').notNull(),
    localHour: smallint('local_hour').notNull(),
    dayStartsAt: timestamp('day_starts_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.trainerId, t.startsAt] }),
    // a trainer's first offered slot, and the filters, read from the index alone
    // (migration 0014 adds INCLUDE (starts_at, local_date, local_hour, day_starts_at))
    index('trainer_free_slots_offered_idx').on(t.trainerId, t.offeredUntil),
    // the trainers with a slot on a date (availableOn), from the date's side; (INCLUDE as above)
    index('trainer_free_slots_date_idx').on(t.localDate, t.trainerId),
  ],
);

/**
 * When each trainer's free slots were last computed (on the bookings module's clock), and what the
 * list sorts and filters on, as of `summarised_at`: the first offered slot (its start and the start of
 * its local date), the first offered morning and evening slot. They hold until `valid_until`, when
 * the first offered slot passes its notice; the list reads the slots themselves for a trainer whose
 * summary has run out, and a sweep brings it up to date (docs/decisions/040-finding-free-trainers.md).
 */
export const trainerSlotRefreshes = pgTable(
  'trainer_slot_refreshes',
  {
    trainerId: uuid('trainer_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull(),
    nextStartsAt: timestamp('next_starts_at', { withTimezone: true }),
    nextDayStartsAt: timestamp('next_day_starts_at', { withTimezone: true }),
    nextMorningAt: timestamp('next_morning_at', { withTimezone: true }),
    nextEveningAt: timestamp('next_evening_at', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true })
      .notNull()
      .default(sql`'infinity'`),
  },
  (t) => [index('trainer_slot_refreshes_at_idx').on(t.refreshedAt), index('trainer_slot_refreshes_valid_idx').on(t.validUntil)],
);

export const BOOKING_STATUS = ['pending', 'confirmed', 'completed', 'cancelled', 'refunded', 'expired', 'no-show'] as const;
/**
 * A booking that holds its slot: live (held or paid) and not released for resale; the partial unique
 * index below lets one such booking per slot exist.
 */
export const LIVE_SLOT = sql.raw(`status in ('pending', 'confirmed') and released_at is null`);

/**
 * One-hour sessions. `pending` holds the slot until `hold_expires_at` while the user pays;
 * `confirmed` is paid. `price_cents` is what the user pays (the trainer's price when the order
 * was made). `provider_order_id` is the payment order made for it, if any.
 */
export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: BOOKING_STATUS }).notNull().default('pending'),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    provider: text('provider'),
    providerOrderId: text('provider_order_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The trainer's place when the slot was held (a later change of the default does not move it). */
    location: jsonb('location').$type<{ kind: 'address' | 'client' | 'online'; text: string }>(),
    /** Who cancelled a cancelled or refunded booking, and the trainer's reason (shown to the client). */
    cancelledBy: text('cancelled_by', { enum: ['user', 'trainer'] }),
    cancelReason: text('cancel_reason'),
    /**
     * The iCalendar SEQUENCE of the session's calendar file: raised each time its user moves it, so a
     * mail's `.ics` updates the same event (same UID) in the calendar it was added to.
     */
    sequence: integer('sequence').notNull().default(0),
    /** Paid from this package balance (docs/product.md#packages), not through the provider; null otherwise. */
    balanceId: uuid('balance_id'),
    /** One of a standing weekly series booked in one step (docs/product.md#standing-weekly-sessions); null otherwise. */
    seriesId: uuid('series_id'),
    /**
     * Its user gave a paid session inside 24 hours back for resale (docs/product.md#releasing-a-late-session):
     * it stays theirs and paid until somebody else books its slot, and no longer holds that slot.
     */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /**
     * The cancellation, no-show and dispute policy in force when the session was booked, frozen on it
     * (docs/decisions/052-frozen-session-policy.md); null on sessions booked before policies were frozen,
     * which follow version 1, as do version 1's missing `noShowHours` (`sessionPolicy` in packages/shared).
     */
    policy: jsonb('policy').$type<{ version: number; cancelHours: number; disputeHours: number; noShowHours?: number }>(),
  },
  (t) => [
    uniqueIndex('bookings_live_slot_uq').on(t.trainerId, t.startsAt).where(LIVE_SLOT),
    uniqueIndex('bookings_order_uq').on(t.providerOrderId),
    index('bookings_user_starts_idx').on(t.userId, t.startsAt),
    index('bookings_trainer_starts_idx').on(t.trainerId, t.startsAt),
    check(
      'bookings_status_ck',
      sql`${t.status} in ('pending', 'confirmed', 'completed', 'cancelled', 'refunded', 'expired', 'no-show')`,
    ),
    check('bookings_price_ck', sql`${t.priceCents} >= 0`),
    check('bookings_ends_ck', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * What a trainer sells besides single sessions: a number of sessions for a total price
 * (docs/product.md#packages). A change archives the old row, so a balance bought keeps what it was sold as.
 */
export const trainerPackages = pgTable(
  'trainer_packages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sessions: integer('sessions').notNull(),
    priceCents: integer('price_cents').notNull(),
    validityMonths: integer('validity_months'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [
    index('trainer_packages_trainer_idx')
      .on(t.trainerId)
      .where(sql`archived_at is null`),
    check('trainer_packages_sessions_ck', sql`${t.sessions} between 2 and 20`),
    check('trainer_packages_price_ck', sql`${t.priceCents} > 0`),
    check('trainer_packages_validity_ck', sql`${t.validityMonths} is null or ${t.validityMonths} between 1 and 12`),
  ],
);

/**
 * A package a user bought (or is buying: `pending` until its capture) from a trainer. Its money is
 * on the ledger, in the account `balance:<id>`; `sessions_left` is what it still pays for, changed
 * with the ledger in one transaction, the row locked (docs/product.md#packages). `kind = 'series'`:
 * the payment of a weekly series' held weeks by card, bought and spent on its sessions at its capture
 * and closed at once, so a session cancelled later is refunded to the card
 * (docs/product.md#standing-weekly-sessions).
 */
export const packageBalances = pgTable(
  'package_balances',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['package', 'series'] })
      .notNull()
      .default('package'),
    packageId: uuid('package_id').references(() => trainerPackages.id),
    /** The weekly series a `series` balance pays for (the bookings' `series_id`). */
    seriesId: uuid('series_id'),
    sessions: integer('sessions').notNull(),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    validityMonths: integer('validity_months'),
    status: text('status', { enum: ['pending', 'active', 'refunding', 'closed'] })
      .notNull()
      .default('pending'),
    sessionsLeft: integer('sessions_left').notNull().default(0),
    provider: text('provider', { enum: ['paypal', 'demo'] }),
    providerOrderId: text('provider_order_id'),
    captureId: text('capture_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('package_balances_order_uq').on(t.provider, t.providerOrderId),
    index('package_balances_user_idx').on(t.userId, t.trainerId),
    check('package_balances_status_ck', sql`${t.status} in ('pending', 'active', 'refunding', 'closed')`),
    check('package_balances_sessions_ck', sql`${t.sessionsLeft} >= 0 and ${t.sessionsLeft} <= ${t.sessions}`),
    check(
      'package_balances_kind_ck',
      sql`(${t.kind} = 'package' and ${t.packageId} is not null) or (${t.kind} = 'series' and ${t.seriesId} is not null)`,
    ),
    index('package_balances_series_idx').on(t.seriesId),
  ],
);

/**
 * A user waiting for a time of a trainer to open up: any one-hour slot starting at or after `from_at`
 * and ending by `to_at` (docs/product.md#waitlist). `removed_at`: the user left the list.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    toAt: timestamp('to_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    index('waitlist_entries_trainer_idx')
      .on(t.trainerId, t.createdAt)
      .where(sql`removed_at is null`),
    index('waitlist_entries_user_idx').on(t.userId, t.createdAt),
    check('waitlist_entries_window_ck', sql`${t.toAt} > ${t.fromAt}`),
  ],
);

/**
 * A freed slot offered to a waiting user: a hold made for them (`booking_id`, held 30 minutes). An
 * entry gets one offer of a time; when it lapses, the time goes to the next in line.
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => waitlistEntries.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('waitlist_offers_entry_slot_uq').on(t.entryId, t.startsAt),
    uniqueIndex('waitlist_offers_booking_uq').on(t.bookingId),
  ],
);

/**
 * One row per captured payment (a booking is paid at most once), with the provider's answers as
 * they came. Money is integer cents; `fee_cents` is Spotter's share (PLATFORM_FEE_PERCENT).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['paypal', 'demo'] }).notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    captureId: text('capture_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    feeCents: integer('fee_cents').notNull().default(0),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['completed', 'refunded'] }).notNull(),
    raw: jsonb('raw').notNull(),
    refundId: text('refund_id'),
    refundRaw: jsonb('refund_raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_order_uq').on(t.provider, t.providerOrderId),
    uniqueIndex('payments_booking_uq').on(t.bookingId),
    index('payments_user_idx').on(t.userId, t.createdAt),
    index('payments_trainer_idx').on(t.trainerId, t.createdAt),
    check('payments_status_ck', sql`${t.status} in ('completed', 'refunded')`),
    check('payments_amount_ck', sql`${t.amountCents} > 0 and ${t.feeCents} >= 0 and ${t.feeCents} <= ${t.amountCents}`),
  ],
);

/**
 * Durable background work (hold expiry, reminder and confirmation mails): a row is claimed by one
 * process at a time (`for update skip locked`), deleted when done, retried with back-off when it
 * fails, and parked with `failed_at` after too many attempts.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`failed_at is null`),
  ],
);

/** What a ledger transaction records (docs/decisions/042-money-ledger.md#accounts-and-transactions). */
export const LEDGER_KINDS = [
  'payment', // a capture accepted for a booking: world → trainer pending + platform fees
  'unplaced', // money captured that no booking takes (wrong amount or currency, too late): world → suspense
  'refund', // money back to the payer: trainer pending + fees (or suspense) → world
  'payable', // a session's share due to its trainer: pending → payable
  'payout', // a payout sent: payable → paying
  'payout-paid', // the provider paid it: paying → world
  'payout-returned', // unclaimed, returned or failed: paying → payable
  'reversal', // the provider took a payment back (a chargeback): trainer share + fees (or losses) → world
  'package', // a package bought: world → the user's balance with the trainer (balance:<id>)
  'redeem', // a session paid from a balance: balance → trainer pending + platform fees
  'unredeem', // a session paid from a balance cancelled: its trainer pending + fees → balance
  'expire', // what is left of a balance on its end date: balance → trainer payable + platform fees
] as const;
export const PAYMENT_EVENT_KINDS = [
  'capture-unknown',
  'capture-settled',
  'capture-mismatch',
  'late-capture-refunded',
  'refund-unknown',
  'webhook',
  'ledger-difference',
  'payout-refused',
  'dispute-opened', // a payer opened a dispute at the provider: the share is not payable until it is resolved
  'dispute-resolved',
] as const;
export const PAYOUT_STATUSES = ['pending', 'sent', 'paid', 'returned'] as const;

/**
 * The ledger (docs/decisions/042-money-ledger.md): every movement of money is one transaction of
 * balanced entries (per currency they sum to zero), written once under a unique key and never
 * changed; the database refuses an update, a delete or an unbalanced transaction (migration 0015).
 * Balances are sums of entries; nothing keeps a balance in place.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** What makes a repeated write a no-op: `capture:<provider>:<captureId>`, `refund:<refundId>`… */
    key: text('key').notNull(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    /** What it concerns; no foreign keys, so no delete elsewhere can take a ledger row with it. */
    bookingId: uuid('booking_id'),
    trainerId: uuid('trainer_id'),
    userId: uuid('user_id'),
    provider: text('provider'),
    providerOrderId: text('provider_order_id'),
    payoutId: uuid('payout_id'),
    memo: text('memo').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_key_uq').on(t.key),
    index('ledger_transactions_order_idx').on(t.provider, t.providerOrderId),
    index('ledger_transactions_booking_idx').on(t.bookingId),
    index('ledger_transactions_trainer_idx').on(t.trainerId, t.createdAt),
    // the console's overview reads the ledger by day (modules/console/overview.repo.ts)
    index('ledger_transactions_created_idx').on(t.createdAt),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    /** `world:<provider>`, `platform:fees`, `trainer:<id>:pending|payable|paying`, `suspense:<provider>:<order>`. */
    account: text('account').notNull(),
    currency: text('currency').notNull(),
    /** Signed cents: money into the account is positive. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.account, t.currency),
    index('ledger_entries_transaction_idx').on(t.transactionId),
    check('ledger_entries_amount_ck', sql`${t.amountCents} <> 0`),
  ],
);

/**
 * A refund asked of the provider: the row (with its unique key) is written before the call, so
 * concurrent cancels make one call; its outcome is filled in after (`unknown` until then).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    key: text('key').notNull(),
    bookingId: uuid('booking_id'),
    provider: text('provider', { enum: ['paypal', 'demo'] }).notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    captureId: text('capture_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['requested', 'completed', 'failed'] }).notNull(),
    reason: text('reason').notNull(),
    providerRefundId: text('provider_refund_id'),
    raw: jsonb('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refunds_key_uq').on(t.key),
    index('refunds_order_idx').on(t.provider, t.providerOrderId),
    check('refunds_amount_ck', sql`${t.amountCents} > 0`),
  ],
);

/**
 * What happened to money that the ledger alone does not explain: a capture whose outcome is not
 * known yet, a capture refused for its amount or currency, a late success refunded, a webhook. Append-only.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: PAYMENT_EVENT_KINDS }).notNull(),
    bookingId: uuid('booking_id'),
    provider: text('provider'),
    providerOrderId: text('provider_order_id'),
    /** A webhook's event id (unique: a replay changes nothing). */
    externalId: text('external_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_events_order_idx').on(t.provider, t.providerOrderId),
    uniqueIndex('payment_events_external_uq').on(t.externalId),
  ],
);

/** A payout to a trainer's PayPal address: one item of a batch (`sender_batch_id` = `batchKey`). */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    trainerId: uuid('trainer_id').notNull(),
    email: text('email').notNull(),
    provider: text('provider', { enum: ['paypal', 'demo'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** pending: written, not sent · sent: the provider has it · paid · returned: unclaimed, returned or failed, back to payable. */
    status: text('status', { enum: PAYOUT_STATUSES }).notNull(),
    /** The bookings whose shares it pays. */
    bookingIds: uuid('booking_ids').array().notNull(),
    batchKey: text('batch_key').notNull(),
    providerBatchId: text('provider_batch_id'),
    providerItemId: text('provider_item_id'),
    providerStatus: text('provider_status'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payouts_trainer_idx').on(t.trainerId, t.createdAt),
    index('payouts_open_idx')
      .on(t.status)
      .where(sql`status in ('pending', 'sent')`),
    check('payouts_amount_ck', sql`${t.amountCents} > 0`),
  ],
);

/**
 * The people who run the marketplace (docs/product.md#the-operator-console): made on the command line
 * (`npm run operator`), never through the web; their own password and second factor (an RFC 6238
 * secret, recovery codes kept as hashes), apart from any member account of the same e-mail (`account_id`).
 * `token_version` ends every console session at once (removal, a new welcome).
 */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    email: text('email').notNull(),
    /** The member account of the same e-mail it was promoted from, if any. */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    passwordHash: text('password_hash'),
    totpSecret: text('totp_secret'),
    /** The last 30-second step whose code signed in: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    recoveryCodeHashes: text('recovery_code_hashes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    welcomeTokenHash: text('welcome_token_hash'),
    welcomeExpiresAt: timestamp('welcome_expires_at', { withTimezone: true }),
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('operators_email_uq').on(sql`lower(${t.email})`),
    uniqueIndex('operators_welcome_uq').on(t.welcomeTokenHash),
  ],
);

/**
 * What operators did (docs/product.md#the-audit-log): written in the transaction of the action,
 * never changed or deleted (a trigger refuses UPDATE and DELETE).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Null: the command line (adding or removing an operator). */
    operatorId: uuid('operator_id').references(() => operators.id),
    action: text('action').notNull(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id'),
    reason: text('reason').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_target_idx').on(t.targetId, t.at),
    index('audit_log_operator_idx').on(t.operatorId, t.at),
  ],
);

const REPORT_KINDS = ['review', 'message', 'profile'] as const;
const REPORT_STATUSES = ['open', 'hidden', 'restored', 'dismissed'] as const;

/**
 * What signed-in people reported (docs/product.md#reports-and-moderation): one report per person and
 * item; an operator's decision on an item closes every open report of it, and each reporter is told.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind', { enum: REPORT_KINDS }).notNull(),
    /** The review, the message or the account (a profile) reported. */
    itemId: uuid('item_id').notNull(),
    /** Whose content it is: the review's author, the message's sender, the profile's owner. */
    subjectId: uuid('subject_id')
      .notNull()
      .references(() => accounts.id),
    reason: text('reason').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: REPORT_STATUSES }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => operators.id),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    uniqueIndex('reports_reporter_item_uq').on(t.reporterId, t.kind, t.itemId),
    index('reports_item_idx').on(t.kind, t.itemId),
    index('reports_status_idx').on(t.status, t.createdAt),
    index('reports_subject_idx').on(t.subjectId, t.createdAt),
    check('reports_kind_ck', sql`${t.kind} in ('review', 'message', 'profile')`),
    check('reports_status_ck', sql`${t.status} in ('open', 'hidden', 'restored', 'dismissed')`),
  ],
);

const CERTIFICATE_STATUSES = ['pending', 'approved', 'rejected'] as const;

/**
 * A trainer's certificate (docs/product.md#verified-coaches): the file is kept privately under the
 * data directory (only the trainer and operators read it); operators approve or reject it.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id),
    issuer: text('issuer').notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    /** The file's name under the data directory's private certificates folder. */
    fileKey: text('file_key').notNull(),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    status: text('status', { enum: CERTIFICATE_STATUSES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => operators.id),
    decisionReason: text('decision_reason'),
    /** When the trainer was reminded that it expires within 30 days. */
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
  },
  (t) => [
    index('certificates_trainer_idx').on(t.trainerId, t.createdAt),
    index('certificates_status_idx').on(t.status, t.createdAt),
    check('certificates_status_ck', sql`${t.status} in ('pending', 'approved', 'rejected')`),
  ],
);

const DISPUTE_STATUSES = ['open', 'decided'] as const;

/**
 * A user's dispute of a session (docs/decisions/047-disputes-by-rule.md): decided by the rule where the
 * facts decide, otherwise by an operator; the session's payout waits while it is open.
 */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id),
    trainerId: uuid('trainer_id')
      .notNull()
      .references(() => accounts.id),
    reason: text('reason').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: DISPUTE_STATUSES }).notNull(),
    /** The row of the rules table that decided it, or 'operator'. */
    rule: text('rule'),
    outcome: text('outcome'),
    refundCents: integer('refund_cents'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => operators.id),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    uniqueIndex('disputes_booking_uq').on(t.bookingId),
    index('disputes_status_idx').on(t.status, t.createdAt),
    check('disputes_status_ck', sql`${t.status} in ('open', 'decided')`),
  ],
);

/**
 * A device's Web Push subscription (docs/product.md#notifications): the push service's endpoint (on an
 * allowed host), the keys its messages are encrypted with, and the kinds this device wants.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    kinds: text('kinds').array().notNull(),
    /** The account's token version when it subscribed: a password change or 'sign out everywhere' ends the subscription too. */
    tokenVersion: integer('token_version').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_uq').on(t.endpoint), index('push_subscriptions_account_idx').on(t.accountId)],
);
