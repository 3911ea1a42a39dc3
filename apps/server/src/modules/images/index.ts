// What other modules and app.ts may use of the images module (docs/architecture.md#routes-services-repos).
export { imagesRoutes } from './images.routes';
export { createImagesService, type ImagesService } from './images.service';
