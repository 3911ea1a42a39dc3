/** The name a deleted account's past shows under (its reviews, messages, bookings and payments). */
export const FORMER_MEMBER = { firstName: 'Former', lastName: 'member' };
