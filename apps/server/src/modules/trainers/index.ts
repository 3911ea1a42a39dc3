// What app.ts may use of the trainers module (docs/architecture.md#routes-services-repos).
export { trainersRoutes } from './trainers.routes';
export { createTrainersService } from './trainers.service';
