import { createVerifiedAccount, expect, PASSWORD, test } from './fixtures';
import { uniqueEmail } from './support';

test('a trainer saves a PayPal payout address in settings; the checklist ticks it and the earnings page shows the four figures and no payouts yet', async ({
  page,
  login,
}) => {
  // three pages and an axe run on each: well over the default on a busy machine
  test.setTimeout(120_000);
  const trainer = await createVerifiedAccount(page.request, 'trainer', 'payouts');
  await login({ role: 'trainer', email: trainer.email, password: PASSWORD });
  const address = uniqueEmail('payouts-paypal');

  // Settings → Payouts, from the settings navigation
  await page.goto('/trainer/settings');
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Payouts' }).click();
  await expect(page).toHaveURL(/#payouts$/);
  const section = page.getByRole('region', { name: 'Payouts' });
  await expect(section.getByText('No payout address yet')).toBeVisible();
  await expect(section).toContainText('Payouts are sent regularly, in batches, through PayPal to this address.');
  await section.getByLabel('PayPal e-mail').fill(address);
  await section.getByRole('button', { name: 'Save payout address' }).click();
  await expect(section.getByText('Your payout address is saved')).toBeVisible();
  await expect(section.getByText(/^Payouts go to/)).toHaveText(`Payouts go to ${address}.`);
  await expect(section.getByText('No payout address yet')).toHaveCount(0);

  // stored: a fresh page reads it back from the server
  await page.reload();
  await expect(page.getByRole('region', { name: 'Payouts' }).getByLabel('PayPal e-mail')).toHaveValue(address);

  // the first-run checklist on the profile (a new trainer has no hours yet, so it shows)
  await page.goto('/trainer/profile');
  const checklist = page.getByRole('list', { name: 'Get ready for your first client' });
  const payoutStep = checklist.getByRole('link', { name: /^Add your payout address/ });
  await expect(payoutStep).toContainText('(done)');
  await expect(payoutStep).toHaveAttribute('href', '/trainer/settings#payouts');

  // the earnings page: the four figures from the ledger, and no payouts yet
  await page.goto('/trainer/payments');
  const figures = page.getByLabel('Your earnings');
  await expect(figures.getByRole('term')).toHaveText(['Pending', 'Payable', 'Paid out', 'Refunded']);
  await expect(figures).toHaveText(/Pending\$0.*Payable\$0.*Paid out\$0.*Refunded\$0/);
  const payouts = page.getByRole('region', { name: 'Payouts' });
  await expect(payouts).toContainText(
    'No payouts yet. Your share of a session becomes payable 48 hours after it ends, once its client can no longer dispute it.',
  );
  await expect(page.getByText('Add a payout address')).toHaveCount(0);
});
