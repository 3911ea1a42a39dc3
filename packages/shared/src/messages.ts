/**
 * Every user-facing message of the spec (section 5, 6 and 8), in one place.
 * Where the spec's words contradict the rule they describe, the rule stands and the
 * words are corrected (see docs/decisions/001-validation-messages.md).
 */
export const MSG = {
  required: 'Required',
  nameMin: 'Min 2 characters',
  min: (n: number) => `Min ${n} characters`,
  max: (n: number) => `Max number of characters is ${n}`,
  emailRequired: 'Please enter your Email',
  emailInvalid: 'Invalid email format',
  passwordRequired: 'Please enter your password',
  passwordShape: 'Password must start with an Uppercase letter and 4-9 char long',
  confirmRequired: 'Please confirm your password',
  passwordsMatch: 'Passwords must match',
  phoneInvalid: 'Invalid phone number',
  ageNumber: 'Must provide a number',
  ageInteger: 'Must be a whole number',
  ageMin: 'Must be 18+',
  ageMax: 'Must be less than 100',
  genderInvalid: 'Choose male or female',
  number: 'Must be a number',
  positive: 'Positive number only',
  wholeNumber: 'Must be a whole number',
  heightMin: 'Must be more than 50cm',
  heightMax: 'Must be less than 250cm',
  weightMin: 'Must be more than 5kg',
  weightMax: 'Must be less than 650kg',
  priceMin: 'Minimum is 100',
  // login
  loginEmailRequired: 'Email is required',
  loginEmailInvalid: 'Invalid email',
  loginPasswordRequired: 'Password is required',
  loginPasswordUppercase: 'Password should start with an uppercase letter',
  loginPasswordMin: 'Password should be more than 3 characters',
  websiteInvalid: 'Enter a web address starting with http:// or https://',
} as const;

/** Server answers, shown to people as they are. */
export const SERVER_MSG = {
  userRegistered: 'Account created! Check your e-mail to verify it, then log in.',
  trainerRegistered: 'Trainer account created! Check your e-mail to verify it, then log in.',
  emailTaken: 'An account with this email already exists',
  loginOk: 'Logged in successfully',
  badCredentials: 'Invalid email or password',
  noToken: 'Please log in first',
  badToken: 'Your session has expired, please log in again',
  wrongRoleUser: 'This page is for users; please log in as a user',
  wrongRoleTrainer: 'Please Login as a Trainer to perform this action!',
  notFound: 'Not found',
  trainerNotFound: 'Trainer not found',
  invalidInput: 'Some fields are not valid',
  malformedJson: 'The request body is not valid JSON',
  bodyMissing: 'The request has no body: send its fields as JSON',
  tooLarge: 'The request is too large',
  tooMany: 'Too many attempts, please wait a minute and try again',
  databaseUnavailable: 'Spotter is briefly unavailable, please try again in a moment',
  verifySent: 'We sent you a new verification link',
  alreadyVerified: 'Your e-mail is already verified',
  resetRequested: 'If an account exists for that e-mail, we sent a link to reset the password',
  resetDone: 'Your password has been changed; you can log in now',
  resetInvalid: 'This reset link is invalid or has expired; ask for a new one',
  verifyInvalid: 'This verification link is invalid or has expired',
  verifyToReview: 'Verify your e-mail address to post a review',
  nulCharacter: 'Text must not contain the NUL character (\\u0000)',
  badUrl: 'The address is not valid: check its percent-encoding (%XX)',
  unsupportedMediaType: 'Send the request body as JSON (Content-Type: application/json)',
  methodNotAllowed: 'This method is not allowed here',
  badRequest: 'The request could not be read',
  internal: 'Something went wrong on our side',
} as const;

/** Toasts of docs/product.md#roles-and-permissions, shared so the server can answer with the same words. */
export const ROLE_MSG = {
  onlyUsersMessage: 'Only users can message trainers!',
  trainersCantMessage: "Trainers can't message other trainers!",
  loginToBook: 'Log in to start booking Trainers!',
  trainersCantBook: "Trainers can't book other Trainers!",
  loginToReview: 'Please log in first!',
  trainersCantReview: "Trainers can't post reviews!",
  loginAsTrainer: 'Please Login as a Trainer to perform this action!',
} as const;

/** Chat answers (the sent toasts are docs/product.md#messages-and-errors's). */
export const CHAT_MSG = {
  sentFromInbox: 'Message sent successfully!',
  sentFromProfile: 'The Trainer will get back to you ASAP!',
  empty: 'Please write a message',
  tooLong: 'Max number of characters is 2000',
  invalidCharacter: 'The message contains a character that cannot be sent',
  chooseRecipient: 'Choose who to write to',
  recipientNotFound: 'This person is not on Spotter',
  usersCantMessageUsers: 'Users can only message trainers!',
  loginToChat: 'Please log in to chat',
  notYourConversation: 'You can only read your own conversations',
  badCursor: 'That message is not part of this conversation',
  oneCursor: 'Use before or after, not both',
  tooMany: 'You are sending messages too fast; wait a minute and try again',
  markedRead: 'Conversation marked as read',
  wsAuthFirst: 'Send {"type":"auth","token":"…"} first',
  wsBadFrame: 'This frame is not valid',
  wsOnly: 'Open this address as a WebSocket',
  wsAlreadyAuthenticated: 'Already authenticated',
  wsTooManySockets: 'Too many open connections for this account',
} as const;

/** Booking answers (the login and role toasts are ROLE_MSG's). */
export const BOOKING_MSG = {
  slotTaken: 'This slot was just booked',
  notASlot: "This time is not one of the trainer's free slots",
  notFound: 'Booking not found',
  verifyToBook: 'Verify your e-mail address to book a session',
  tooManyHolds: 'Finish or cancel the bookings you started before booking another slot',
  holdCooldown: (minutes: number) =>
    `You held this time a few minutes ago. You can hold it again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, or pick another time now.`,
  holdExpired: 'Your hold on this slot has expired; please pick a time again',
  alreadyPaid: 'This booking is already paid',
  notPayable: 'This booking can no longer be paid',
  tooLateToCancel: 'Sessions can be cancelled only up to 24 hours before they start',
  /** The same words with the session's own frozen hours (docs/decisions/052-frozen-session-policy.md). */
  tooLateToCancelFor: (hours: number) => `Sessions can be cancelled only up to ${hours} hours before they start`,
  alreadyOver: 'This booking is already cancelled or over',
  cancelInProgress: 'This session is being cancelled and refunded already',
  cancelled: 'Your booking is cancelled',
  refunded: 'Your booking is cancelled and the payment refunded',
  badTimeZone: 'Choose a valid time zone, such as Africa/Cairo',
  availabilitySaved: 'Your availability is saved',
  trainerCancelled: 'The session is cancelled and the client refunded in full',
  noShowMarked: 'Marked as a no-show',
  noShowTooEarly: 'A session can be marked a no-show only after it starts',
  noShowNotConfirmed: 'Only a paid session can be marked a no-show',
  onlyTrainerNoShow: 'Only the session’s trainer can mark a no-show',
  /** The reason a session shows (and its mail states) when its trainer's account ended (deleted, retired). */
  trainerLeft: 'The trainer’s Spotter account was closed',
  /** What a trainer reads when a user's account was closed by Spotter's operators. */
  userLeft: 'The client’s Spotter account was closed',
  rescheduleTooLate: 'Sessions can be moved only up to 24 hours before they start',
  /** The same words with the session's own frozen hours (docs/decisions/052-frozen-session-policy.md). */
  rescheduleTooLateFor: (hours: number) => `Sessions can be moved only up to ${hours} hours before they start`,
  rescheduleNotPaid: 'Only a paid session can be moved; pick a new time and pay for it instead',
  rescheduleSameTime: 'This is already the session’s time; pick another one',
  onlyClientMoves: 'Only the client can move a session. Message them to agree a new time, or cancel it with a full refund.',
  rescheduleInProgress: 'This session is being cancelled and refunded, so it can no longer be moved',
  released:
    'Your session is offered to others. If somebody books it, you are refunded in full and we e-mail you; until then it stays yours.',
  releaseTooEarly: 'More than 24 hours ahead a session is cancelled with a full refund instead',
  /** The same words with the session's own frozen hours (docs/decisions/052-frozen-session-policy.md). */
  releaseTooEarlyFor: (hours: number) => `More than ${hours} hours ahead a session is cancelled with a full refund instead`,
  releaseStarted: 'This session has started',
  alreadyReleased: 'This session is offered to others already',
  onlyClientReleases: 'Only the client can release a session',
  seriesNotFound: 'This weekly series was not found',
  seriesNotHeld: 'The times held for this weekly series ran out before payment. Pick the time again.',
  seriesPaidTogether: 'This session is one of a weekly series: pay for the series together',
  seriesNoneFree: 'None of these weeks is free at that time; pick another time',
  /** The answer to a move: 'Your session is moved to Tue 1 Dec, 09:00 (Cairo time, GMT+2)'. */
  moved: (when: string) => `Your session is moved to ${when}`,
} as const;

/** Payment answers; the provider's own declines are passed through as they come. */
export const PAYMENT_MSG = {
  orderNotFound: 'Order not found',
  providerDown: 'The payment provider is not answering. Nothing was charged; please try again in a moment.',
  providerTimeout: 'The payment provider took too long to answer. Please try again in a moment.',
  /** A capture answered by a timeout or a server error: the money may have moved (docs/decisions/042-money-ledger.md#unknown-outcomes). */
  captureUnknown:
    'The payment provider did not confirm your payment in time. We are checking whether it went through and will e-mail you; trying again never charges twice.',
  amountMismatch:
    'The payment provider charged a different amount than this session costs, so it was refunded in full and the session is not booked. Please try again.',
  webhooksOff: 'PayPal webhooks are not configured on this server (PAYPAL_WEBHOOK_ID)',
  webhookUnsigned: 'This webhook is not signed by PayPal',
  lateCaptureRefunded:
    'Your payment arrived after your hold ended and the time was booked by someone else, so it was refunded in full.',
  providerRejected: 'The payment provider refused this payment',
  demoLabel: 'Demo payment: no money moves',
} as const;

/** Payout answers (docs/decisions/042-money-ledger.md#payouts). */
export const PAYOUT_MSG = {
  addressSaved: 'Your payout address is saved',
  addressRemoved: 'Your payout address is removed; payouts wait until you add one',
  onlyTrainers: 'Only trainers receive payouts',
  returned: 'A payout could not be delivered and is back in your payable balance. Check your payout address.',
  refusedShort: 'PayPal did not accept this payout from Spotter; the amount goes out with the next daily payout.',
  refused:
    'PayPal did not accept today’s payout from Spotter. Your earnings are safe in your payable balance and go out with the next daily payout; you need to do nothing.',
  addressChanged: 'Your Spotter payouts now go to the PayPal account',
  addressChangedNotYou: 'If you did not change it, change your password and your payout address now.',
} as const;
