// What app.ts may use of the newsletter module (docs/architecture.md#routes-services-repos).
export { newsletterRoutes } from './newsletter.routes';
export { createNewsletterService } from './newsletter.service';
