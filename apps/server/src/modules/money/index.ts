// What other modules and app.ts may use of the money module (docs/decisions/042-money-ledger.md):
// the ledger, and the payment providers (PayPal, the demo) that move money in and out.
export { account, balance, balances, hasTransaction, LedgerError, post, type LedgerKind, type Posting } from './ledger.repo';
export { createPaymentProviders } from './providers/payment-providers';
export {
  PaymentRejectedError,
  ProviderUnavailableError,
  type PaymentProvider,
  type ProviderCapture,
  type ProviderName,
  type ProviderOrderState,
  type ProviderPayoutBatch,
} from './providers/payment-provider';
