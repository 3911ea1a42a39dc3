import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PushEnvContext, type PushEnv } from '@/lib/push';
import { fakePushEnv } from '@/testing/fake-push';
import { renderWithProviders } from '@/testing/render';
import { DeviceNotificationsSection } from './push-notifications';

const renderSection = (env: PushEnv, role: 'user' | 'trainer' = 'user') =>
  renderWithProviders(
    <PushEnvContext value={env}>
      <DeviceNotificationsSection role={role} />
    </PushEnvContext>,
  );

describe('DeviceNotificationsSection', () => {
  it('says it is loading while the server’s push settings come', async () => {
    const { env } = fakePushEnv();
    renderSection({ ...env, api: { ...env.api, getConfig: () => new Promise(() => undefined) } });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
  });

  it('is not there when the server sends no notifications', async () => {
    const { env } = fakePushEnv({ publicKey: null });
    renderSection(env);
    expect(await screen.findByRole('heading', { name: 'Notifications on this device' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Notifications on this device' })).not.toBeInTheDocument());
  });

  it('says when this browser cannot show notifications', async () => {
    const { env } = fakePushEnv({ isSupported: false });
    renderSection(env);
    expect(await screen.findByText(/This browser cannot show notifications from Spotter/)).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('explains how to allow notifications the browser blocks', async () => {
    const { env } = fakePushEnv({ permission: 'denied' });
    renderSection(env);
    expect(await screen.findByText('Notifications are blocked in this browser')).toBeInTheDocument();
    expect(screen.getByText(/set Notifications to Allow/)).toBeInTheDocument();
  });

  it('offers a switch per kind of the role; switching one on asks the browser, subscribes and saves that kind', async () => {
    const { env, state } = fakePushEnv();
    const { user } = renderSection(env);
    const list = await screen.findByRole('list', { name: 'Notifications on this device' });
    expect(
      within(list)
        .getAllByRole('switch')
        .map((s) => s.closest('li')?.textContent),
    ).toEqual([
      'New messages',
      'Sessions booked, moved or cancelled',
      'Reminders before a session',
      'A time you wait for opens up',
    ]);
    expect(screen.getByText(/e-mails still come/)).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'New messages' }));
    expect(await screen.findByText('Saved for this device.')).toBeInTheDocument();
    expect(state.requested).toBe(1);
    expect(state.saved.map((s) => s.kinds)).toEqual([['message']]);
    expect(state.subscribeKeys).toHaveLength(1);
    expect(screen.getByRole('switch', { name: 'New messages' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Reminders before a session' })).not.toBeChecked();

    await user.click(screen.getByRole('switch', { name: 'Reminders before a session' }));
    await screen.findByRole('switch', { name: 'Reminders before a session', checked: true });
    expect(state.saved.map((s) => s.kinds)).toEqual([['message'], ['message', 'reminder']]);
  });

  it('shows what this device gets, and turns it off on this device only', async () => {
    const { env, state } = fakePushEnv({ permission: 'granted' });
    state.subscription = { endpoint: 'https://push.example/device-1' };
    state.devices = [
      { endpoint: 'https://push.example/device-1', kinds: ['payout', 'booking'], createdAt: '2026-12-01T00:00:00.000Z' },
      { endpoint: 'https://push.example/other-phone', kinds: ['message'], createdAt: '2026-12-01T00:00:00.000Z' },
    ];
    const { user } = renderSection(env, 'trainer');
    expect(await screen.findByRole('switch', { name: 'Payouts sent' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Sessions booked, moved or cancelled' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'New messages' })).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Turn off on this device' }));
    expect(await screen.findByText('Saved: this device gets no notifications.')).toBeInTheDocument();
    expect(state.removed).toEqual(['https://push.example/device-1']);
    expect(state.devices.map((d) => d.endpoint)).toEqual(['https://push.example/other-phone']);
    expect(screen.getByRole('switch', { name: 'Payouts sent' })).not.toBeChecked();
  });

  it('says why a save failed', async () => {
    const { env } = fakePushEnv({ failSave: true });
    const { user } = renderSection(env);
    await user.click(await screen.findByRole('switch', { name: 'New messages' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach Spotter');
    expect(screen.getByRole('switch', { name: 'New messages' })).not.toBeChecked();
  });

  it('stays off when the person blocks notifications at the browser’s question', async () => {
    const { env, state } = fakePushEnv({ answer: 'denied' });
    const { user } = renderSection(env);
    await user.click(await screen.findByRole('switch', { name: 'New messages' }));
    expect(await screen.findByText('Notifications are blocked in this browser')).toBeInTheDocument();
    expect(state.saved).toEqual([]);
  });
});
