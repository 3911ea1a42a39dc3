/**
 * At logout (docs/product.md#notifications): this browser stops getting the person's notifications.
 * The server forgets the device, told with the token being given up; the browser's subscription ends
 * too, so whatever is still queued for it is answered 410 by the push service and dropped. Nothing
 * waits for it: logging out never hangs on the network.
 */
export async function forgetPushDevice(
  token: string | null,
  {
    fetchApi = globalThis.fetch,
    container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker,
  }: {
    fetchApi?: typeof fetch;
    container?: Pick<ServiceWorkerContainer, 'getRegistration'>;
  } = {},
): Promise<void> {
  if (!token || !container) return;
  try {
    const registration = await container.getRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    if (!subscription) return;
    await fetchApi('/api/push/subscriptions', {
      method: 'DELETE',
      keepalive: true,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ endpoint: subscription.endpoint }),
    }).catch(() => undefined);
    await subscription.unsubscribe().catch(() => false);
  } catch {
    // a browser whose service worker is broken or gone has no device to forget
  }
}
