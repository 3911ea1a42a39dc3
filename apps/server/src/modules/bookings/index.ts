// What other modules and app.ts may use of the bookings module (docs/architecture.md#routes-services-repos).
export { bookingsModule, createBookingsServices } from './bookings.module';
// read joins for other modules' repos (docs/decisions/018-read-joins-across-modules.md)
export { completedSessionOf, subscriberCount } from './bookings.repo';
