// What other modules and app.ts may use of the push module (docs/architecture.md#routes-services-repos).
export { createPushService, type PushNotify } from './push.service';
export { pushRoutes } from './push.routes';
