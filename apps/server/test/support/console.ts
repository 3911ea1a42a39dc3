import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { TConsoleWelcomeResponse } from '@spotter/shared';
import { addOperator } from '../../src/modules/console';
import { uniqueEmail, type TestApp } from '../helper';

export const OPERATOR_PASSWORD = 'Console-pass-12';

/** The code an authenticator app shows for `secret` at `at` (RFC 6238: SHA-1, 6 digits, 30 s). */
export const codeAt = (secret: string, at = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

/**
 * An operator added as the command line adds one, who used the welcome link and signed in with the
 * code of the step before now (so a test's next sign-in can use the current one).
 */
export async function signedInOperator(t: TestApp, email = uniqueEmail('operator')) {
  const added = await addOperator({ db: t.database.db, now: () => new Date() }, email);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/console/welcome',
    payload: { token: added.token, password: OPERATOR_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  const factor = res.json() as TConsoleWelcomeResponse;
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/console/login',
    payload: { email, password: OPERATOR_PASSWORD, code: codeAt(factor.totpSecret, Date.now() - 30_000) },
  });
  expect(login.statusCode, login.body).toBe(200);
  return { email, id: added.id, factor, token: login.json().token as string };
}
