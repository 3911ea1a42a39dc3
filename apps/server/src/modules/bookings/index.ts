// What other modules and app.ts may use of the bookings module (docs/architecture.md#routes-services-repos).
export { bookingsModule, createBookingsServices } from './bookings.module';
// read joins for other modules' repos (docs/decisions/018-read-joins-across-modules.md)
export { completedSessionOf, subscriberCount } from './bookings.repo';
// the trainer list finds free trainers from the slots the booking dialog offers (docs/decisions/040-finding-free-trainers.md)
export { freeSlots } from './free-slots';
export { slotStateReader } from './availability.repo';
export type { BookingsContext } from './context';
