// What app.ts may use of the avatars module (docs/architecture.md#routes-services-repos).
export { avatarsRoutes } from './avatars.routes';
