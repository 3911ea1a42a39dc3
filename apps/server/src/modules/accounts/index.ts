// What other modules and app.ts may use of the accounts module (docs/architecture.md#routes-services-repos).
export { accountsRoutes } from './accounts.routes';
export {
  createAccountsService,
  type AccountChanges,
  type AccountsService,
  type OnDeleted,
  type RegisteredAccount,
} from './accounts.service';
export { FORMER_MEMBER } from './former-member';
export { googleSignInRoutes } from './google-sign-in.routes';
export { createGoogleSignInService } from './google-sign-in.service';
export { createTokenStates } from './token-states';
