import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { mailTo, signUpData, uniqueEmail } from './support';

/**
 * The one `test` of every spec (epic-stack `tests/playwright-utils.ts`). Its `page`:
 * - fails the test on a console error or an uncaught page error (a 4xx the test provokes on
 *   purpose shows as a failed resource; that one is allowed);
 * - runs axe (WCAG 2.x A and AA) on every page the test opens: when the test leaves it (goto,
 *   reload) and on the page it ends on, in the state the test brought it to; any violation fails.
 * `login` logs in through the API instead of the login screen (only auth.spec.ts tests that).
 * `goto` and `reload` return once the app has rendered or hydrated the page (`<html data-app-ready>`).
 */

export type Role = 'user' | 'trainer';
export const plural = (role: Role) => (role === 'user' ? 'users' : 'trainers');

export const DEMO_PASSWORD = 'Demo1234';

/** The password of the accounts the specs sign up. */
export const PASSWORD = 'Strong12';

/** A letters-only last name no other account has. */
const uniqueName = () =>
  `Zed${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

/**
 * Signs a fresh account up through the API, verifies it through its mail and logs it in; answers its
 * token and names (first names 'Karim' for trainers, 'Salma' for users).
 */
export async function createVerifiedAccount(request: APIRequestContext, role: Role, prefix: string) {
  const email = uniqueEmail(`${prefix}-${role}`);
  const firstName = role === 'trainer' ? 'Karim' : 'Salma';
  const lastName = uniqueName();
  const response = await request.post(`/api/${plural(role)}/register`, {
    data: signUpData(role, { firstName, lastName, email, password: PASSWORD }),
  });
  expect(response.status(), await response.text()).toBe(201);
  const mail = await mailTo(email);
  expect((await request.get(mail.links[0])).ok()).toBe(true);
  const login = await request.post(`/api/${plural(role)}/login`, { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  return { email, firstName, lastName, fullName: `${firstName} ${lastName}`, token };
}
export const demoEmail = (role: Role) => `${role}@spotter.test`;

/**
 * The browser's own lines, not the app's errors: an answer of 400–404 or 409 the app shows, and the
 * chat socket that cannot connect while a test cut the network (`context.setOffline`).
 */
const ALLOWED_CONSOLE_ERROR =
  /Failed to load resource: the server responded with a status of 40[01349]|WebSocket connection to .* failed: .*ERR_INTERNET_DISCONNECTED/;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe's WCAG A/AA violations of the page as it is now, one line each. */
export async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return results.violations.map(
    (v) => `${page.url()} ${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** For a state the test leaves before changing page (an open dialog): axe now. */
export async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page), 'axe').toEqual([]);
}

type LoginOptions = { role?: Role; email?: string; password?: string };

type Fixtures = {
  /**
   * Logs in through the API and stores the token and user type in localStorage, as the login
   * screen does, from the next page the test opens on (a later logout stays logged out).
   * Answers the token, for API calls of the test.
   */
  login: (options?: LoginOptions) => Promise<string>;
};

export const test = base.extend<Fixtures>({
  page: async ({ page }, use, testInfo) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !ALLOWED_CONSOLE_ERROR.test(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));

    const violations: string[] = [];
    const checked = new Set<string>();
    const check = async () => {
      const url = page.url();
      if (!url.startsWith('http') || page.isClosed()) return;
      checked.add(url);
      violations.push(...(await axeViolations(page)));
    };
    // A page the server rendered is on screen before the app runs, and its buttons answer only once
    // the app has hydrated it (docs/decisions/031-server-rendered-first-page.md): a test, like a person, acts on a page that is
    // ready.
    const ready = async () => {
      if (new URL(page.url()).pathname.startsWith('/api/')) return;
      await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    };
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args: Parameters<Page['goto']>) => {
      await check();
      const answer = await goto(...args);
      await ready();
      return answer;
    };
    page.reload = async (...args: Parameters<Page['reload']>) => {
      await check();
      const answer = await reload(...args);
      await ready();
      return answer;
    };

    await use(page);

    // A failed test already says what went wrong; axe on its broken page would only add noise.
    if (testInfo.status === testInfo.expectedStatus) await check();
    expect(errors, 'console errors').toEqual([]);
    expect(violations, `axe (${[...checked].join(', ')})`).toEqual([]);
  },

  login: async ({ page }, use) => {
    await use(async ({ role = 'user', email = demoEmail(role), password = DEMO_PASSWORD } = {}) => {
      const answer = await page.request.post(`/api/${plural(role)}/login`, { data: { email, password } });
      expect(answer.status(), await answer.text()).toBe(200);
      const { token } = (await answer.json()) as { token: string };
      await page.addInitScript(
        ([value, type]) => {
          // Once per tab: a reload keeps what the app stored since (a new token, a logout).
          if (sessionStorage.getItem('e2e:logged-in')) return;
          sessionStorage.setItem('e2e:logged-in', '1');
          localStorage.setItem('token', value);
          localStorage.setItem('userType', type);
        },
        [token, role],
      );
      return token;
    });
  },
});

export { expect };
