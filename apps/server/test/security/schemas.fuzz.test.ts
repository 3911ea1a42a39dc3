import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as shared from '@spotter/shared';
import { SIGN_UP } from '../support/sign-up';
import { FUZZ_SEED, hostileBody, nastyJson } from './arbitraries';

/**
 * Property-based fuzzing of every zod schema the shared package exports (issue 13): whatever
 * value comes in, `safeParse` answers and never throws, and `parse` throws a ZodError only.
 * A transform or refinement that assumes its input's shape would throw something else, which
 * the server would answer with a 500.
 */

const isSchema = (v: unknown): v is z.ZodType => v instanceof z.ZodType;
/** Schema factories take a message (and a key): called with both to get a schema. */
const fromFactory = (name: string, f: unknown) => {
  if (typeof f !== 'function' || !/^Z[A-Z]/.test(name)) return undefined;
  try {
    const made = (f as (a: string, b?: string) => unknown)('Not found');
    return isSchema(made) ? made : undefined;
  } catch {
    return undefined;
  }
};
const SCHEMAS: Array<[string, z.ZodType]> = Object.entries(shared).flatMap(([name, v]): Array<[string, z.ZodType]> => {
  if (isSchema(v)) return [[name, v]];
  const made = fromFactory(name, v);
  return made ? [[`${name}()`, made]] : [];
});

const ID = '0b6f8a9e-3c1d-4e2f-9a7b-5c6d7e8f9a0b';

/** A valid value of each request schema, to fuzz near it. Checked valid first, so none goes stale. */
const VALID: Record<string, Record<string, unknown>> = {
  ZUserSignUpRequest: SIGN_UP,
  ZTrainerSignUpRequest: { ...SIGN_UP, price: 200 },
  ZTrainerSignUpForm: { ...SIGN_UP, price: 200, city: 'Cairo' },
  ZLoginRequest: { email: 'nadia@example.com', password: 'Strong12' },
  ZForgotPasswordRequest: { email: 'nadia@example.com', role: 'user' },
  ZResetPasswordRequest: { token: 'a'.repeat(43), password: 'Strong12', confirmPassword: 'Strong12' },
  ZVerifyQuery: { token: 'a'.repeat(43) },
  ZEditProfileRequest: { firstName: 'Nadia', lastName: 'Samir', title: 'Coach', description: 'Lifts', city: 'Cairo' },
  ZEditTrainerProfileRequest: { firstName: 'Nadia', price: 150 },
  ZPersonalDetailsForm: {
    firstName: 'Nadia',
    lastName: 'Samir',
    email: 'nadia@example.com',
    title: 'Coach',
    description: 'Lifts',
  },
  ZEditPhotoRequest: { picture: '/api/images/abc.webp' },
  ZContactRequest: { phone: '01012345678', website: '', weight: 70, height: 170 },
  ZChangePasswordRequest: { oldPassword: 'Strong12', newPassword: 'Newpass12', confirmPassword: 'Newpass12' },
  ZNotificationsRequest: { account: true, marketing: false },
  ZDeleteAccountRequest: { password: 'Strong12' },
  ZCreateReviewRequest: { trainerId: ID, rating: 5, comment: 'Great coach' },
  ZSendChatRequest: { message: 'hello', recipientId: ID },
  ZChatQuery: { userId: ID },
  ZCreateBookingRequest: { trainerId: ID, startsAt: '2026-12-01T10:00:00Z' },
  ZCreateOrderRequest: { bookingId: ID, cart: [{ id: 'x', quantity: 1 }] },
  ZAvailabilityRequest: { timeZone: 'Africa/Cairo', weekly: [{ weekday: 1, hours: [9, 10] }] },
  ZMergeFavoritesRequest: { favorites: [ID] },
  ZNewsletterRequest: { email: 'nadia@example.com' },
  ZTrainersQuery: { page: '2', limit: '10', q: 'coach', minPrice: '100', maxPrice: '300', sort: 'price_asc', ids: `${ID},x` },
  ZTrainerListSearch: { page: '2', sort: 'price', city: 'Cairo' },
  ZGoogleSignInRequest: { credential: 'x'.repeat(40), role: 'trainer' },
  ZWsClientFrame: { type: 'auth', token: 'x.y.z' },
};

/** Parses `value`; fails the property on anything thrown but a ZodError. */
function neverThrowsButZod(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(typeof result.success).toBe('boolean');
  try {
    schema.parse(value);
  } catch (err) {
    if (!(err instanceof z.ZodError)) throw err;
  }
}

const params = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: true });

describe('shared schemas under fuzzing', () => {
  it('finds the schemas and has a valid sample of each request schema', () => {
    expect(SCHEMAS.length).toBeGreaterThan(60);
    const names = new Set(SCHEMAS.map(([n]) => n));
    for (const [name, sample] of Object.entries(VALID)) {
      expect(names.has(name), name).toBe(true);
      const result = (shared as unknown as Record<string, z.ZodType>)[name].safeParse(sample);
      expect(result.success, `${name}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
    }
  });

  it.each(SCHEMAS)('%s: any value, JSON or not, parses or fails with a ZodError', (_name, schema) => {
    fc.assert(
      fc.property(
        fc.oneof(
          nastyJson.map((text) => JSON.parse(text) as unknown),
          fc.anything({
            withBigInt: true,
            withDate: true,
            withMap: true,
            withSet: true,
            withTypedArray: true,
            withNullPrototype: true,
          }),
        ),
        (value) => neverThrowsButZod(schema, value),
      ),
      params(40),
    );
  });

  it.each(Object.keys(VALID))('%s: near-valid values parse or fail with a ZodError', (name) => {
    const schema = (shared as unknown as Record<string, z.ZodType>)[name];
    fc.assert(
      fc.property(hostileBody(VALID[name]), (text) => {
        const value = JSON.parse(text) as unknown;
        neverThrowsButZod(schema, value);
        // a parsed `__proto__` key never reaches the prototype of anything
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      params(100),
    );
  });
});
