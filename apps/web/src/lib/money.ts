import { formatPrice } from './format';

/**
 * An amount as the payments pages and the payout history write it: cents matter in fees, refunds and
 * payouts ("$135.50"), whole dollars stay whole ("$135"). Every amount is in dollars today; another
 * currency is written with its code rather than passed off as dollars.
 */
export const formatMoney = (amount: number, currency = 'USD') =>
  currency === 'USD' ? formatPrice(amount, Number.isInteger(amount) ? 0 : 2) : `${amount.toFixed(2)} ${currency}`;
