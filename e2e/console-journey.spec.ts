import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { createVerifiedAccount, expect, test } from './fixtures';

/**
 * The operator journey (docs/product.md#the-operator-console): an operator signs in with an
 * authenticator code, approves a trainer's certificate (the 'Verified coach' badge appears on the
 * public profile), hides a reported review (the profile's rating and count change), suspends the
 * trainer, who has an upcoming paid session (its user sees it refunded), and finds the three actions,
 * with their reasons, in the audit log.
 *
 * The setup (accounts, hours, the certificate, the paid session, the reviews and the report) goes
 * through the API; every operator action goes through the console's screens. The operator is the
 * second one playwright.config.ts adds on the command line (e2e/console.spec.ts uses the first one's
 * welcome link), so this spec reads its own link.
 */
const EMAIL = process.env.E2E_JOURNEY_OPERATOR_EMAIL!;
const OPERATOR_PASSWORD = 'Journey-pass-e2e-34';

/** The code an authenticator app shows for `secret` now (RFC 6238: SHA-1, 6 digits, 30 s). */
const codeNow = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

const authorised = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

/** A small PDF with nothing active in it, as a trainer would upload a scanned certificate. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
    'trailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

function welcomeLink() {
  const printed = readFileSync(process.env.E2E_JOURNEY_OPERATOR_LINK!, 'utf8');
  const link = printed.split('\n').find((line) => line.includes('/console/welcome?token='));
  expect(link, printed).toBeTruthy();
  return new URL(link!.trim());
}

async function idOf(request: APIRequestContext, token: string, role: 'user' | 'trainer') {
  const own = await request.get(role === 'trainer' ? '/api/trainerData' : '/api/userData', authorised(token));
  expect(own.status(), await own.text()).toBe(200);
  const data = (await own.json()) as { trainerData?: { _id: string }; userData?: { _id: string } };
  return (data.trainerData ?? data.userData)!._id;
}

async function expectStatus(answer: Awaited<ReturnType<APIRequestContext['get']>>, status: number) {
  expect(answer.status(), await answer.text()).toBe(status);
}

/** Opens the console's screen by its link in the console's navigation. */
async function openConsole(page: Page, label: string, heading: string) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

test('an operator signs in with TOTP, approves a certificate, hides a reported review, suspends a trainer with a paid session, and finds all three in the audit log', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const request = page.request;
  const run = Date.now().toString(36);

  // ── Setup through the API ──
  const trainer = await createVerifiedAccount(request, 'trainer', 'journey');
  const booker = await createVerifiedAccount(request, 'user', 'journey-booker');
  const critic = await createVerifiedAccount(request, 'user', 'journey-critic');
  const trainerId = await idOf(request, trainer.token, 'trainer');

  // the trainer's hours, every hour of every day, and the user's paid session, the soonest one
  const weekly = Array.from({ length: 7 }, (_, weekday) => ({ weekday, hours: Array.from({ length: 24 }, (_, h) => h) }));
  await expectStatus(
    await request.put('/api/trainer/availability', {
      ...authorised(trainer.token),
      data: { timeZone: 'UTC', weekly, minNoticeHours: 1 },
    }),
    200,
  );
  const slots = await request.get(`/api/trainers/${trainerId}/slots`);
  const [startsAt] = ((await slots.json()) as { slots: string[] }).slots;
  expect(startsAt, 'an open slot').toBeDefined();
  const held = await request.post('/api/bookings', { ...authorised(booker.token), data: { trainerId, startsAt } });
  await expectStatus(held, 201);
  const { booking } = (await held.json()) as { booking: { _id: string } };
  const order = await request.post('/api/orders', { ...authorised(booker.token), data: { bookingId: booking._id } });
  await expectStatus(order, 200);
  const { id: orderId } = (await order.json()) as { id: string };
  await expectStatus(await request.post(`/api/orders/${encodeURIComponent(orderId)}/capture`, authorised(booker.token)), 200);

  // a pending certificate
  const issuer = `Journey Coaching Board ${run}`;
  const expiresOn = new Date(Date.now() + 365 * 24 * 60 * 60_000).toISOString().slice(0, 10);
  await expectStatus(
    await request.post('/api/trainer/certificates', {
      ...authorised(trainer.token),
      multipart: { file: { name: 'certificate.pdf', mimeType: 'application/pdf', buffer: PDF }, issuer, expiresOn },
    }),
    201,
  );

  // two reviews (5 and 1 stars: 3.0 from 2 reviews); the booker reports the critic's one
  const praise = `Great sessions, very attentive ${run}`;
  const rant = `Buy cheap followers at spam.example ${run}`;
  await expectStatus(
    await request.post('/api/reviews/new', { ...authorised(booker.token), data: { trainerId, rating: 5, comment: praise } }),
    201,
  );
  const posted = await request.post('/api/reviews/new', {
    ...authorised(critic.token),
    data: { trainerId, rating: 1, comment: rant },
  });
  await expectStatus(posted, 201);
  const listed = await request.get(`/api/trainer/reviews/${trainerId}`, authorised(booker.token));
  const { allReviews } = (await listed.json()) as { allReviews: Array<{ _id: string; comment: string }> };
  const reviewId = allReviews.find((review) => review.comment === rant)?._id;
  expect(reviewId, JSON.stringify(allReviews)).toBeTruthy();
  await expectStatus(
    await request.post('/api/reports', {
      ...authorised(booker.token),
      data: { kind: 'review', id: reviewId, reason: 'spam', note: 'An advert, not a review' },
    }),
    201,
  );

  const profile = `/trainer/profile/${trainerId}`;
  const bookingCard = page.getByRole('complementary', { name: 'Booking' });
  const heading = page.getByRole('heading', { level: 1, name: trainer.fullName });

  // before: no badge, 3.0 from 2 reviews
  await page.goto(profile);
  await expect(heading).toBeVisible();
  await expect(page.getByText('Verified coach')).toHaveCount(0);
  await expect(bookingCard).toContainText(/3\.0 out of 5 ·\s*2 reviews/);

  // ── The operator sets a password, reads the secret shown once, and signs in with a TOTP code ──
  const link = welcomeLink();
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByLabel('Password', { exact: true }).fill(OPERATOR_PASSWORD);
  await page.getByLabel('Confirm password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your second factor' })).toBeFocused();
  const secret = (await page.getByLabel('Secret (to type into the app)').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByRole('link', { name: 'Continue to sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the console' })).toBeFocused();
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(OPERATOR_PASSWORD);
  await page.getByLabel('Authenticator code').fill(codeNow(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(EMAIL);

  // ── 1. Approve the certificate ──
  const approveReason = `Checked the issuer's register ${run}`;
  await openConsole(page, 'Certificates', 'Certificates');
  const certificate = page.getByRole('article').filter({ hasText: issuer }).filter({ hasText: trainer.fullName });
  await expect(certificate).toContainText('Pending');
  await certificate.getByRole('button', { name: /^Approve/ }).click();
  const approve = page.getByRole('dialog', { name: 'Approve the certificate?' });
  await approve.getByLabel('Reason (optional)').fill(approveReason);
  await approve.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(approve).toBeHidden();
  await expect(certificate).toHaveCount(0);

  // the public profile shows the badge; in another browser, the user who booked (the list of reviews
  // shows to a signed-in person only)
  const visitor = await browser.newContext();
  await visitor.addInitScript(
    ([token, type]) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userType', type);
    },
    [booker.token, 'user'],
  );
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(profile);
  await expect(visitorPage.getByRole('heading', { level: 1, name: trainer.fullName })).toBeVisible();
  await expect(visitorPage.getByText('Verified coach').first()).toBeVisible();
  const visitorCard = visitorPage.getByRole('complementary', { name: 'Booking' });
  await expect(visitorCard).toContainText(/3\.0 out of 5 ·\s*2 reviews/);
  await expect(visitorPage.getByText(rant)).toBeVisible();

  // ── 2. Hide the reported review ──
  const hideReason = `Advertising, not a review ${run}`;
  await openConsole(page, 'Reports', 'Reports');
  const report = page.getByRole('article').filter({ hasText: rant });
  await expect(report).toHaveCount(1);
  await expect(report).toContainText('1 person reported it');
  await report.getByRole('button', { name: /^Hide/ }).click();
  const hide = page.getByRole('dialog', { name: 'Hide it?' });
  await hide.getByLabel('Reason', { exact: true }).fill(hideReason);
  await hide.getByRole('button', { name: 'Hide it', exact: true }).click();
  await expect(hide).toBeHidden();
  await expect(report).toHaveCount(0);

  // the profile's rating and count, without the hidden review: 5.0 from 1 review
  await visitorPage.reload();
  await expect(visitorCard).toContainText(/5\.0 out of 5 ·\s*1 review(?!s)/);
  await expect(visitorPage.getByText(rant)).toHaveCount(0);
  await expect(visitorPage.getByText(praise)).toBeVisible();
  await expect(visitorPage.getByText('Verified coach').first()).toBeVisible();

  // ── 3. Suspend the trainer, who has an upcoming paid session ──
  const suspendReason = `Repeated no-shows reported by clients ${run}`;
  await page.goto(`/console/people/${trainerId}`);
  await expect(page.getByRole('heading', { level: 1, name: trainer.fullName })).toBeVisible();
  await page.getByRole('button', { name: 'Suspend', exact: true }).click();
  const suspend = page.getByRole('dialog', { name: `Suspend ${trainer.fullName}?` });
  await expect(suspend).toContainText('their upcoming paid sessions are cancelled and refunded in full');
  await suspend.getByLabel('Reason', { exact: true }).fill(suspendReason);
  await suspend.getByRole('button', { name: 'Suspend the account' }).click();
  await expect(suspend).toBeHidden();
  await expect(page.getByText('Suspended', { exact: true }).first()).toBeVisible();

  // the refund is a durable job, which a poller runs within its 15-second round: wait for it as the
  // server stores it
  await expect
    .poll(
      async () => {
        const answer = await request.get('/api/bookings', authorised(booker.token));
        return ((await answer.json()) as { bookings: Array<{ _id: string; status: string }> }).bookings.find(
          (b) => b._id === booking._id,
        )?.status;
      },
      { timeout: 45_000 },
    )
    .toBe('refunded');

  // the user who booked sees the session refunded in their sessions (My sessions, on their profile)
  await visitorPage.goto('/user/profile');
  const past = visitorPage.getByRole('list', { name: 'Past and cancelled sessions' });
  await expect(past).toContainText(trainer.fullName);
  await expect(past).toContainText('Refunded');
  await expect(visitorPage.getByRole('list', { name: 'Upcoming sessions' }).getByText(trainer.fullName)).toHaveCount(0);
  await visitor.close();

  // ── The audit log holds all three, with their reasons ──
  await openConsole(page, 'Audit log', 'Audit log');
  const table = page.getByRole('table', { name: /Audit log entries/ });
  for (const [action, reason] of [
    ['certificate.approve', approveReason],
    ['report.hide', hideReason],
    ['person.suspend', suspendReason],
  ])
    await expect(table.getByRole('row').filter({ hasText: action }).filter({ hasText: reason })).toHaveCount(1);
});
