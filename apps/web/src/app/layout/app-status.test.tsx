import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appUpdate } from '@/lib/app-update';
import { registerServiceWorker, type WorkboxLike } from '@/lib/service-worker';
import { goOnline } from '@/testing/online';
import { OFFLINE_TEXT, OfflineBanner, UpdatePrompt } from './app-status';

describe('OfflineBanner (docs/product.md#installable-and-offline)', () => {
  it('says so while the browser is offline, in a polite live region', () => {
    render(<OfflineBanner />);
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();

    goOnline(false);
    expect(region).toHaveTextContent(OFFLINE_TEXT);

    goOnline(true);
    expect(region).toBeEmptyDOMElement();
  });

  it('shows at once when the page opens offline', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<OfflineBanner />);
    expect(screen.getByRole('status')).toHaveTextContent("You're offline. Showing what was saved on this device.");
  });
});

/** workbox-window's Workbox as the registration uses it: its listeners, fired by the test. */
function fakeWorkbox() {
  const listeners = new Map<string, Array<() => void>>();
  const workbox = {
    addEventListener: vi.fn((type: string, listener: () => void) => {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    }),
    register: vi.fn(async () => undefined),
    messageSkipWaiting: vi.fn(),
  };
  const fire = (type: string) =>
    act(() => {
      for (const listener of listeners.get(type) ?? []) listener();
    });
  return { workbox: workbox as unknown as WorkboxLike, calls: workbox, fire };
}

describe('UpdatePrompt', () => {
  afterEach(() => appUpdate.offer(null));

  it('offers a waiting version, and applies it only when asked', async () => {
    const user = userEvent.setup();
    const reload = vi.fn();
    const { workbox, calls, fire } = fakeWorkbox();
    render(<UpdatePrompt />);
    await registerServiceWorker({ workbox, reload });
    expect(calls.register).toHaveBeenCalledOnce();
    expect(screen.queryByText('A new version of Spotter is ready')).not.toBeInTheDocument();

    // another tab took the new version: nothing is offered yet, and this page is not reloaded
    fire('controlling');
    expect(reload).not.toHaveBeenCalled();

    fire('waiting');
    expect(screen.getByRole('status')).toHaveTextContent('A new version of Spotter is ready');
    expect(calls.messageSkipWaiting).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(calls.messageSkipWaiting).toHaveBeenCalledOnce();
    // the page reloads once the new worker controls it, not before
    expect(reload).not.toHaveBeenCalled();
    fire('controlling');
    expect(reload).toHaveBeenCalledOnce();
  });
});
