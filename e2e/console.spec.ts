import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from './fixtures';

/**
 * The operator console's first slice (docs/product.md#the-operator-console): an operator made on the
 * command line opens the printed link, sets a password, adds the second factor, signs in with an
 * authenticator code, reads the audit log, exports it and signs out.
 *
 * Operators are made on the command line only, and on PGlite the command refuses while the server
 * holds the data folder. So playwright.config.ts runs `node scripts/operator.mjs add --email …`, as an
 * operator would, on the fresh data folder just before it starts the server, and writes what the
 * command prints to a file: this spec reads the link from there, as a person reads it off the terminal.
 */
const EMAIL = process.env.E2E_OPERATOR_EMAIL!;
const PASSWORD = 'Console-pass-e2e-12';

/** The code an authenticator app shows for `secret` now (RFC 6238: SHA-1, 6 digits, 30 s). */
const codeNow = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

function welcomeLink() {
  const printed = readFileSync(process.env.E2E_OPERATOR_LINK!, 'utf8');
  const link = printed.split('\n').find((line) => line.includes('/console/welcome?token='));
  expect(link, printed).toBeTruthy();
  return new URL(link!.trim());
}

test('an operator added on the command line sets up the console, signs in, reads and exports the audit log, and signs out', async ({
  page,
}) => {
  const link = welcomeLink();
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page).toHaveTitle('Welcome to the Spotter console · Spotter console');
  await expect(page.getByRole('navigation')).toHaveCount(0);

  // the password, then the second factor, shown once
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your second factor' })).toBeFocused();
  await expect(page.getByText('Shown once')).toBeVisible();
  await expect(page.getByRole('img', { name: /QR code for your authenticator app/ })).toBeVisible();
  const secret = (await page.getByLabel('Secret (to type into the app)').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.first().textContent())!.trim();
  const [codesFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  expect(codesFile.suggestedFilename()).toBe('spotter-console-recovery-codes.txt');
  expect(readFileSync((await codesFile.path())!, 'utf8')).toContain((await codes.first().textContent())!);

  // sign in with the authenticator's code
  await page.getByRole('link', { name: 'Continue to sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeFocused();
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Authenticator code').fill(codeNow(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();

  // the audit log: added on the command line, welcomed, signed in (the console journey's operator,
  // added the same way, may have entries of its own: e2e/console-journey.spec.ts)
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByRole('banner')).toContainText(EMAIL);
  const table = page.getByRole('table', { name: /Audit log entries/ });
  for (const action of ['operator.sign-in', 'operator.welcome', 'operator.add'])
    await expect(table.getByText(action, { exact: true }).first()).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'operator.add' }).first()).toContainText('Command line');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // on a phone: a list instead of the table, and nothing wider than the screen
  await page.setViewportSize({ width: 360, height: 740 });
  const list = page.getByRole('list', { name: /Audit log entries/ });
  await expect(list.getByRole('listitem').filter({ hasText: 'operator.add' }).first()).toContainText('Command line');
  await expect(table).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(table).toBeVisible();

  // the export, a CSV file of the same entries
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe('spotter-audit-log.csv');
  const text = readFileSync((await csv.path())!, 'utf8');
  for (const action of ['operator.add', 'operator.welcome', 'operator.sign-in']) expect(text).toContain(action);
  expect(text).toContain(EMAIL);

  // sign out: the session is gone from the tab, and the log asks for a sign-in again
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  await page.goto('/console');
  await expect(page).toHaveURL(/\/console\/login$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

  // without the phone: a recovery code signs in, once
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('table', { name: /Audit log entries/ }).getByText('signed in with a recovery code')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Authenticator code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // the code is spent: the server's one message for every failure
  await expect(page.getByText('The e-mail, the password or the code is wrong')).toBeVisible();
});
