/**
 * Every user-facing message of the spec (section 5, 6 and 8), in one place.
 * Where the spec's words contradict the rule they describe, the rule stands and the
 * words are corrected (see docs/decisions/002-validation-messages.md).
 */
export const MSG = {
  required: 'Required',
  nameMin: 'Min 2 characters',
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
  tooLarge: 'The request is too large',
  tooMany: 'Too many attempts, please wait a minute and try again',
  verifySent: 'We sent you a new verification link',
  alreadyVerified: 'Your e-mail is already verified',
  resetRequested: 'If an account exists for that e-mail, we sent a link to reset the password',
  resetDone: 'Your password has been changed; you can log in now',
  resetInvalid: 'This reset link is invalid or has expired; ask for a new one',
  verifyInvalid: 'This verification link is invalid or has expired',
} as const;

/** Toasts of spec section 6, shared so the server can answer with the same words. */
export const ROLE_MSG = {
  onlyUsersMessage: 'Only users can message trainers!',
  trainersCantMessage: "Trainers can't message other trainers!",
  loginToBook: 'Log in to start booking Trainers!',
  trainersCantBook: "Trainers can't book other Trainers!",
  loginToReview: 'Please log in first!',
  trainersCantReview: "Trainers can't post reviews!",
  loginAsTrainer: 'Please Login as a Trainer to perform this action!',
} as const;
