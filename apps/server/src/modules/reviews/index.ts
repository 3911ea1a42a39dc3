// What app.ts may use of the reviews module (docs/architecture.md#routes-services-repos).
export { reviewsRoutes } from './reviews.routes';
export { createReviewsService } from './reviews.service';
export { setReviewHidden } from './reviews.repo';
