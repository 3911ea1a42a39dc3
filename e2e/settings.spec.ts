import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD, demoEmail, expect, expectNoAxeViolations, plural, test, type Role } from './fixtures';
import { mailTo, uniqueEmail, signUpData } from './support';

const PASSWORD = 'Strong12';

/** A letters-only name no other account has, so a search finds exactly this one. */
const uniqueName = () =>
  `Zed${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

/** Signs a fresh account up through the API (optionally verified through the mailed link). */
async function createAccount(request: APIRequestContext, role: Role, { verify = false } = {}) {
  const email = uniqueEmail(`settings-${role}`);
  const lastName = uniqueName();
  const response = await request.post(`/api/${plural(role)}/register`, {
    data: signUpData(role, { firstName: 'Salma', lastName, email, password: PASSWORD }),
  });
  expect(response.status(), await response.text()).toBe(201);
  if (verify) {
    const mail = await mailTo(email);
    expect((await request.get(mail.links[0])).ok()).toBe(true);
  }
  return { email, lastName };
}

/** What the server answers a login with these details (the login screen itself is auth.spec.ts's). */
async function loginStatus(request: APIRequestContext, role: Role, email: string, password: string) {
  const response = await request.post(`/api/${plural(role)}/login`, { data: { email, password } });
  return { status: response.status(), message: ((await response.json()) as { message: string }).message };
}

/** A 320×200 PNG with a gradient, drawn by the browser. */
async function makePng(page: Page) {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    const context = canvas.getContext('2d')!;
    const gradient = context.createLinearGradient(0, 0, 320, 200);
    gradient.addColorStop(0, 'rgb(198, 244, 50)');
    gradient.addColorStop(1, 'rgb(11, 16, 32)');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 320, 200);
    context.fillStyle = 'rgb(255, 255, 255)';
    context.beginPath();
    context.arc(160, 100, 50, 0, Math.PI * 2);
    context.fill();
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1], 'base64');
}

test('a user changes the first name and sees it in the profile header; settings pass axe', async ({ page, login }) => {
  // three pages, two saves each waiting for its toast to go, and four axe runs: over a minute on a busy machine
  test.setTimeout(150_000);
  const { email } = await createAccount(page.request, 'user');
  await login({ role: 'user', email, password: PASSWORD });

  await page.goto('/user/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expectNoAxeViolations(page);

  const firstName = page.getByLabel('First Name', { exact: true });
  await expect(firstName).toHaveValue('Salma');
  await firstName.fill('Yasmin');
  const title = page.getByLabel('Title', { exact: true });
  await title.fill('x'.repeat(26));
  await title.blur();
  await expect(page.getByText('Max number of characters is 25')).toBeVisible();
  await title.fill('Morning runner');
  await page.getByRole('button', { name: 'Save details', exact: true }).click();
  await expect(page.getByText('Your details are saved').first()).toBeVisible();

  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile', exact: true }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Yasmin /);
  await expect(page.getByText('Morning runner')).toBeVisible();
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('userData'))) ?? '{}')).toMatchObject({
    firstName: 'Yasmin',
  });
  // The profile itself, once the save toast (components/ui/toaster.tsx, checked elsewhere) has gone.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The chart starts from the weight given at sign-up (61 kg); contact info adds the next point.
  await page.goto('/user/profile');
  await expect(page.getByTestId('weight-point')).toHaveCount(1);
  await expect(page.getByText('One weight saved: 61 kg', { exact: false })).toBeVisible();
  await page.goto('/user/settings');
  await page.getByLabel('Weight', { exact: true }).fill('60');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Your contact info is saved').first()).toBeVisible();
  // axe checks the settings page as it is left: not with a toast half faded out.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await page.goto('/user/profile');
  await expect(page.getByTestId('weight-point')).toHaveCount(2);
  await expect(page.getByText(/^2 weights saved, from 61 kg on .+ to 60 kg on /)).toBeVisible();
});

test('a trainer uploads and crops a photo, and it shows on the profile and the public card', async ({ page, login }) => {
  const { email, lastName } = await createAccount(page.request, 'trainer', { verify: true });
  const token = await login({ role: 'trainer', email, password: PASSWORD });
  const png = await makePng(page);

  await page.goto('/trainer/settings');
  const photo = page.getByRole('region', { name: 'Photo', exact: true });
  await expect(photo.getByRole('button', { name: 'Change photo' })).toBeVisible();

  // The browser refuses what the server would refuse, with the same words.
  await photo
    .locator('input[type=file]')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(photo.getByText('Upload a PNG, JPEG or WebP image')).toBeVisible();

  await photo.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  const cropArea = photo.getByRole('group', { name: 'Photo crop' });
  await expect(cropArea).toBeVisible();
  await photo.getByLabel('Zoom', { exact: true }).fill('2');
  await cropArea.focus();
  await page.keyboard.press('ArrowLeft');
  await photo.getByRole('button', { name: 'Save photo' }).click();

  const progress = photo.getByRole('progressbar');
  await expect(progress).toHaveAttribute('value', '100');
  await expect(photo.getByText('Upload complete')).toBeVisible();
  await expect(photo.getByText('Your photo is updated')).toBeVisible();

  const own = (await (await page.request.get('/api/trainerData', { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    trainerData: { _id: string; picture: string };
  };
  const picture = own.trainerData.picture;
  // answered absolute (PUBLIC_URL), so clients on other origins can show it
  expect(picture).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/images\/[0-9a-f]{64}\.webp$/);
  // The header on the settings page already shows it.
  await expect(page.locator(`img[src="${picture}"]`).first()).toBeVisible();

  await page.goto('/trainer/profile');
  await expect(page.locator(`img[src="${picture}"]`).first()).toBeVisible();
  expect(
    await page
      .locator(`img[src="${picture}"]`)
      .first()
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);

  // Anyone sees it: the trainer list answers it for this trainer, and the public profile shows it.
  const list = (await (await page.request.get(`/api/trainers?q=${lastName}`)).json()) as {
    viewAllTrainers: { picture: string }[];
  };
  expect(list.viewAllTrainers.map((t) => t.picture)).toEqual([picture]);
  await page.goto(`/trainers?q=${lastName}`);
  await expect(page.locator(`img[src="${picture}"]`)).toHaveCount(1);
  await page.goto(`/trainer/profile/${own.trainerData._id}`);
  await expect(page.locator(`img[src="${picture}"]`).first()).toBeVisible();
});

test('after a password change only the new password logs in', async ({ page, login }) => {
  const { email } = await createAccount(page.request, 'user');
  const oldToken = await login({ role: 'user', email, password: PASSWORD });

  await page.goto('/user/settings');
  await page.getByLabel('Old password', { exact: true }).fill('Wrong123');
  await page.getByLabel('New password', { exact: true }).fill('Fresh123');
  await page.getByLabel('Re-type new password', { exact: true }).fill('Fresh123');
  await page.getByRole('button', { name: 'Save password', exact: true }).click();
  await expect(page.getByText('Your current password is not correct')).toBeVisible();

  await page.getByLabel('Old password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Save password', exact: true }).click();
  await expect(page.getByText('Your password is changed').first()).toBeVisible();
  const freshToken = await page.evaluate(() => localStorage.getItem('token'));
  expect(freshToken).not.toBe(oldToken);
  // The fresh token keeps this browser signed in.
  await page.reload();
  await expect(page.getByLabel('First Name', { exact: true })).toHaveValue('Salma');

  await page.getByRole('navigation', { name: 'Account' }).getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  expect(await loginStatus(page.request, 'user', email, PASSWORD)).toEqual({ status: 401, message: 'Invalid email or password' });
  expect((await loginStatus(page.request, 'user', email, 'Fresh123')).status).toBe(200);
});

test('a deleted account is signed out and cannot log in again', async ({ page, login }) => {
  const { email } = await createAccount(page.request, 'user');
  await login({ role: 'user', email, password: PASSWORD });

  await page.goto('/user/settings');
  await page.getByRole('button', { name: 'Delete Account', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Please enter your password')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Your account is deleted')).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('userType')])).toEqual([null, null]);

  expect(await loginStatus(page.request, 'user', email, PASSWORD)).toEqual({ status: 401, message: 'Invalid email or password' });
});

test("a user's token on the trainer settings goes to the user's own profile and shows no one's data", async ({ page, login }) => {
  const token = await login({ role: 'user', email: demoEmail('user'), password: DEMO_PASSWORD });

  await page.goto('/trainer/settings');
  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText('trainer@spotter.test')).toHaveCount(0);

  // Even with a forged user type the server answers 403 and the page shows it.
  await page.evaluate(() => localStorage.setItem('userType', 'trainer'));
  await page.goto('/trainer/settings');
  await expect(page.getByRole('alert').filter({ hasText: 'Please Login as a Trainer to perform this action!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.getByLabel('First Name', { exact: true })).toHaveCount(0);
  expect(token).toBeTruthy();
});
