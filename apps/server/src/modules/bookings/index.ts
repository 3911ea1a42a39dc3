// What other modules and app.ts may use of the bookings module (docs/architecture.md#routes-services-repos).
export { bookingsModule, createBookingsServices } from './bookings.module';
// read joins for other modules' repos (docs/decisions/018-read-joins-across-modules.md)
export { completedSessionOf, subscriberCount } from './bookings.repo';
// the socket's booking frame, each side's view (the chats module pushes it)
export { bookingViewsForPush } from './booking-push';
// a trainer's offered slots, the booking dialog's (docs/product.md#booking-and-payment): `freeSlots(ctx, { trainerId })`
// with a `slotStateReader` as `ctx.slotStates`; the trainer list finds free trainers from them
// (docs/decisions/040-finding-free-trainers.md)
export { freeSlots } from './free-slots';
export { slotStateReader } from './availability.repo';
export type { BookingsContext } from './context';
export { packagesOf } from './packages';
// the operator console's sessions and refunds (docs/product.md#refunds-by-operators)
export { searchBookingsForOperators } from './operator-bookings.repo';
export { refundByOperator } from './refund-by-operator';
export { decideDispute, listDisputes } from './disputes';
