// What other modules and app.ts may use of the favourites module (docs/architecture.md#routes-services-repos).
export { favouritesRoutes } from './favourites.routes';
export { createFavouritesService, type FavouritesService } from './favourites.service';
