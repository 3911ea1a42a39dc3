import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PushEnvContext, type PushEnv } from '@/lib/push';
import { fakePushEnv } from '@/testing/fake-push';
import { renderWithProviders } from '@/testing/render';
import { PushPrompt } from './push-notifications';

const QUESTION = 'Get a notification when Nadia replies?';
const renderPrompt = (env: PushEnv) =>
  renderWithProviders(
    <PushEnvContext value={env}>
      <PushPrompt question={QUESTION} />
    </PushEnvContext>,
  );

describe('PushPrompt', () => {
  it('turns notifications on: asks the browser, subscribes this device and saves it', async () => {
    const { env, state } = fakePushEnv();
    const { user } = renderPrompt(env);
    const card = await screen.findByRole('group', { name: QUESTION });
    expect(state.requested).toBe(0); // never asked before the person chooses
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Notifications are on for this device.');
    expect(card).not.toBeInTheDocument();
    expect(state.requested).toBe(1);
    expect(state.saved).toHaveLength(1);
    expect(state.saved[0].kinds).toBeUndefined();
  });

  it('remembers “Not now” for 30 days', async () => {
    const { env, state } = fakePushEnv();
    const first = renderPrompt(env);
    await first.user.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(screen.getByRole('status')).toHaveTextContent('You can turn notifications on any time in Settings.');
    expect(screen.getByRole('status')).toHaveFocus();
    expect(state.requested).toBe(0);
    first.unmount();

    state.now += 29 * 24 * 60 * 60 * 1000;
    const again = renderPrompt(env);
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByRole('group', { name: QUESTION })).not.toBeInTheDocument();
    again.unmount();

    state.now += 2 * 24 * 60 * 60 * 1000;
    renderPrompt(env);
    expect(await screen.findByRole('group', { name: QUESTION })).toBeInTheDocument();
  });

  it('is not offered once the browser has an answer, where it cannot, or when the server sends none', async () => {
    for (const options of [
      { permission: 'granted' as const },
      { permission: 'denied' as const },
      { isSupported: false },
      { publicKey: null },
    ]) {
      const { env } = fakePushEnv(options);
      const { unmount } = renderPrompt(env);
      await new Promise((r) => setTimeout(r, 0));
      expect(screen.queryByRole('group', { name: QUESTION })).not.toBeInTheDocument();
      unmount();
    }
  });

  it('says so when the person blocks them at the browser’s question', async () => {
    const { env, state } = fakePushEnv({ answer: 'denied' });
    const { user } = renderPrompt(env);
    await user.click(await screen.findByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Notifications are blocked in this browser.');
    expect(state.saved).toEqual([]);
  });
});
