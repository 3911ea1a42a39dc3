// What other modules and app.ts may use of the money module (docs/decisions/042-money-ledger.md):
// the ledger, and the payment providers (PayPal, the demo) that move money in and out.
export { account, balance, balances, hasTransaction, post, type Posting } from './ledger.repo';
export { createPaymentProviders } from './providers/payment-providers';
export {
  PaymentRejectedError,
  ProviderUnavailableError,
  type PaymentProvider,
  type ProviderCapture,
  type ProviderName,
} from './providers/payment-provider';
// trainers paid out: the payout routes and jobs (app.ts registers the module), and a trainer's
// money as the ledger has it (the bookings module's earnings totals read it)
export { moneyModule } from './money.module';
export { trainerLedgerTotals } from './earnings.repo';
// the ledger check on demand (the console's money page)
export { checkLedger } from './ledger-check';
