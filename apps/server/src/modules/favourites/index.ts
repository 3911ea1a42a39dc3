// What other modules and app.ts may use of the favourites module (docs/architecture.md#routes-services-repos).
export { favouritesRoutes } from './favourites.routes';
export { createFavouritesService, type FavouritesService } from './favourites.service';
// who to tell of a trainer's time that opened up (the bookings module's release of a late session)
export { favouritersOf } from './favourites.repo';
