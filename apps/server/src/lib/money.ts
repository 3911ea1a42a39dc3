/**
 * Money is integer cents everywhere but at the edges (the API's `price` in dollars, PayPal's
 * "12.50" strings). One rounding rule: to the nearest cent, halves away from zero.
 */

/** Dollars (a number such as 149.99) to integer cents. */
export function toCents(dollars: number): number {
  if (!Number.isFinite(dollars)) throw new RangeError(`not an amount: ${dollars}`);
  // toPrecision removes the binary noise of e.g. 1.005 * 100 = 100.49999999999999
  const cents = Math.round(Number((Math.abs(dollars) * 100).toPrecision(15)));
  return dollars < 0 ? -cents : cents;
}

/** Integer cents to dollars, exact to the cent. */
export function fromCents(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  return cents / 100;
}

/** Integer cents as a decimal string with two places, as payment providers want it: 15000 → "150.00". */
export function centsToDecimalString(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A provider's "150.00" back to integer cents, without going through a float. */
export function decimalStringToCents(value: string): number {
  const m = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) throw new RangeError(`not an amount: ${value}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** `percent` of an amount in cents, rounded by the same rule. */
export function percentOf(cents: number, percent: number): number {
  const share = Math.round(Math.abs(cents * percent) / 100);
  return cents * percent < 0 ? -share : share;
}

/**
 * Currencies PayPal states without decimals ("150" JPY): an amount in them is sent as a whole number.
 * Spotter keeps every amount as hundredths of its unit, so 150 JPY is 15000 here.
 */
const WHOLE_UNIT_CURRENCIES = new Set(['HUF', 'JPY', 'TWD']);

/** An amount as a provider's value for its currency: "150.00" USD, "150" JPY. */
export function providerAmountValue(cents: number, currency: string): string {
  if (WHOLE_UNIT_CURRENCIES.has(currency) && cents % 100 === 0) return String(cents / 100);
  return centsToDecimalString(cents);
}
