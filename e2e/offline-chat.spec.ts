import { createVerifiedAccount, expect, test } from './fixtures';

type Stored = { _id: string; message: string; senderId: string; clientMessageId?: string | null };

/**
 * docs/product.md#offline: messages written offline show at once as pending, in order, and go once
 * and in order when the connection returns.
 */
test('messages written offline wait in the conversation and are delivered once, in order, when back online', async ({
  page,
  context,
  login,
}) => {
  const trainer = await createVerifiedAccount(page.request, 'trainer', 'offline-chat');
  const user = await createVerifiedAccount(page.request, 'user', 'offline-chat');
  const own = await page.request.get('/api/trainerData', { headers: { Authorization: `Bearer ${trainer.token}` } });
  const trainerId = ((await own.json()) as { trainerData: { _id: string } }).trainerData._id;
  const readConversation = async () => {
    const answer = await page.request.get(`/api/chats/${trainerId}`, { headers: { Authorization: `Bearer ${user.token}` } });
    expect(answer.ok()).toBe(true);
    return ((await answer.json()) as { allMessages: Stored[] }).allMessages;
  };

  await login({ role: 'user', email: user.email, password: 'Strong12' });
  await page.goto(`/user/chatOfUser?with=${trainerId}&name=${trainer.firstName}`);
  const log = page.getByRole('log', { name: `Conversation with ${trainer.firstName}` });
  await expect(log).toBeVisible();
  const input = page.getByLabel('Your message');
  await expect(input).toBeVisible();

  await context.setOffline(true);
  await page.waitForFunction(() => !navigator.onLine);
  const texts = [`First while offline ${Date.now()}`, `Second while offline ${Date.now()}`];
  for (const text of texts) {
    await input.fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(input).toHaveValue('');
  }
  const pending = log.getByTestId('pending-message');
  await expect(pending).toHaveCount(2);
  await expect(pending.nth(0)).toContainText(texts[0]);
  await expect(pending.nth(1)).toContainText(texts[1]);
  await expect(pending.nth(0)).toContainText('Waiting for connection');

  await context.setOffline(false);
  await expect(pending).toHaveCount(0);
  for (const text of texts) await expect(log.getByText(text, { exact: true })).toHaveCount(1);

  // the server has each exactly once, in the order written
  await expect.poll(async () => (await readConversation()).map((m) => m.message)).toEqual(texts);
  const stored = await readConversation();
  expect(new Set(stored.map((m) => m.clientMessageId)).size).toBe(2);

  // a reload shows them once, from the server, and nothing waits any more
  await page.reload();
  await expect(
    page.getByRole('log', { name: `Conversation with ${trainer.firstName}` }).getByText(texts[1], { exact: true }),
  ).toHaveCount(1);
  await expect(page.getByTestId('pending-message')).toHaveCount(0);
});
