import { expect, test } from './fixtures';
import { mailTo, uniqueEmail } from './support';

for (const role of ['user', 'trainer'] as const) {
  const plural = role === 'user' ? 'users' : 'trainers';

  test(`a ${role} signs up, verifies the e-mail, logs in, sees the profile icon and logs out`, async ({ page }) => {
    const email = uniqueEmail(role);
    await page.goto(`/${plural}/register`);
    await page.getByLabel('First Name', { exact: true }).fill('Nadia');
    await page.getByLabel('Last Name', { exact: true }).fill('Samir');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Strong12');
    await page.getByLabel('Confirm Password', { exact: true }).fill('Strong12');
    await page.getByLabel('Phone', { exact: true }).fill('01012345678');
    await page.getByLabel('Female', { exact: true }).check();
    await page.getByLabel('Age', { exact: true }).fill('30');
    await page.getByLabel('Height', { exact: true }).fill('170');
    await page.getByLabel('Weight', { exact: true }).fill('65');
    if (role === 'trainer') {
      await page.getByLabel('Price', { exact: true }).fill('250');
      await page.getByLabel('City', { exact: true }).fill('Giza');
    }
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await expect(page.getByText(/account created/i)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${plural}/login$`), { timeout: 8_000 });

    const mail = await mailTo(email);
    expect(mail.subject).toContain('Spotter');
    await page.goto(mail.links[0]);
    await expect(page).toHaveURL(new RegExp(`/verification/success\\?role=${role}`));
    await expect(page.getByText('Your account has been verified successfully!')).toBeVisible();
    await page.getByRole('link', { name: 'Login now!' }).click();
    await expect(page).toHaveURL(new RegExp(`/${plural}/login$`));

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Strong12');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Logged in successfully')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${role}/profile$`), { timeout: 8_000 });

    const profileLink = page.getByRole('link', { name: 'My profile', exact: true });
    await expect(profileLink).toBeVisible();
    await expect(profileLink).toHaveAttribute('href', `/${role}/profile`);
    await expect(page.getByRole('link', { name: 'Become A Trainer' })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('userType'))).toBe(role);

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Log in', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Become A Trainer' })).toBeVisible();
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('userType')])).toEqual([null, null]);
  });
}

test('a wrong password shows the red alert with the server message and stores nothing', async ({ page }) => {
  await page.goto('/users/login');
  await page.getByLabel('Email', { exact: true }).fill('user@spotter.test');
  await page.getByLabel('Password', { exact: true }).fill('Wrong123');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('sign-up validates a field once touched, with the spec message', async ({ page }) => {
  await page.goto('/users/register');
  const first = page.getByLabel('First Name', { exact: true });
  await first.fill('A');
  await expect(page.getByText('Min 2 characters')).toHaveCount(0);
  await first.blur();
  await expect(page.getByText('Min 2 characters')).toBeVisible();
  await first.fill('Ab');
  await expect(page.getByText('Min 2 characters')).toHaveCount(0);
});

test('unknown routes show the not-found page with a link home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page Not Found')).toBeVisible();
  await expect(page.getByText('Oh ! no')).toBeVisible();
});
