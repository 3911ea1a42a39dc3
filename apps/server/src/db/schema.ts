import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  primaryKey,
  smallint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The predicate of every partial index on trainers; list queries repeat it word for word so the
 * planner can use them.
 */
export const LISTED_TRAINER = sql.raw(`role = 'trainer' and deleted_at is null and email_verified_at is not null`);

/**
 * Users and trainers share one table: they have the same fields, log in the same way and
 * differ by role and a few trainer columns (docs/decisions/003-one-accounts-table.md).
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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
    ratingAvg: numeric('rating_avg', { precision: 3, scale: 2, mode: 'number' }).notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('accounts_role_email_uq').on(t.role, sql`lower(${t.email})`),
    // The list's indexes also INCLUDE price, rating, gender, city and created_at (city too where the
    // key is lower(city): an index-only scan needs the column itself) (added by hand in
    // migration 0001; drizzle-kit cannot write INCLUDE), so a page is found by an index-only scan
    // and only its 24 rows are read (docs/decisions/006-trainer-list-speed.md).
    index('accounts_trainer_rating_idx').on(t.ratingAvg.desc(), t.id).where(LISTED_TRAINER),
    index('accounts_trainer_price_idx').on(t.priceCents, t.id).where(LISTED_TRAINER),
    index('accounts_trainer_newest_idx').on(t.createdAt.desc(), t.id).where(LISTED_TRAINER),
    index('accounts_trainer_city_idx').on(sql`lower(${t.city})`, t.ratingAvg.desc(), t.id).where(LISTED_TRAINER),
    index('accounts_trainer_city_price_idx').on(sql`lower(${t.city})`, t.priceCents, t.id).where(LISTED_TRAINER),
    index('accounts_trainer_search_idx')
      .using('gin', sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.title} || ' ' || ${t.description}) gin_trgm_ops`)
      .where(LISTED_TRAINER),
    check('accounts_trainer_price_ck', sql`${t.role} <> 'trainer' or ${t.priceCents} >= 10000`),
  ],
);

/** One-time links mailed to people: e-mail verification and password reset. Only the hash is kept. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_tokens_hash_uq').on(t.tokenHash), index('account_tokens_account_idx').on(t.accountId)],
);

/** One review per user per trainer; posting again edits it (DECISIONS 15). */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
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

/** Uploaded photos, re-encoded, addressed by the SHA-256 of their bytes (DECISIONS 19). */
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
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    weight: integer('weight').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('weight_entries_account_idx').on(t.accountId, t.recordedAt)],
);
