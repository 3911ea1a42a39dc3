import type { TPushConfig, TPushSubscription, TPushSubscriptionRequest, TPushSubscriptionsResponse } from '@spotter/shared';
import { apiRequest } from '../api-client';

/**
 * Web Push (docs/product.md#notifications): the server's public key, and this account's devices with
 * the kinds each one gets.
 */

export const pushKeys = {
  all: ['push'] as const,
  config: () => [...pushKeys.all, 'config'] as const,
  subscriptions: () => [...pushKeys.all, 'subscriptions'] as const,
};

/** GET /api/push/config: the VAPID public key, or null when this server sends no notifications. */
export const getPushConfig = (signal?: AbortSignal) => apiRequest<TPushConfig>('/push/config', { signal });

/** GET /api/push/subscriptions: the caller's devices, newest first. */
export const getPushSubscriptions = async (signal?: AbortSignal) =>
  (await apiRequest<TPushSubscriptionsResponse>('/push/subscriptions', { signal })).subscriptions;

/** POST /api/push/subscriptions: this device (its `PushSubscription.toJSON()`) and the kinds it wants. */
export const savePushSubscription = async (body: TPushSubscriptionRequest) =>
  (await apiRequest<{ subscription: TPushSubscription }>('/push/subscriptions', { method: 'POST', body })).subscription;

/** DELETE /api/push/subscriptions: no more notifications on this device. */
export const deletePushSubscription = async (endpoint: string) => {
  await apiRequest<unknown>('/push/subscriptions', { method: 'DELETE', body: { endpoint } });
};
