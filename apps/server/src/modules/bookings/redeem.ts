import { PLATFORM_FEE_PERCENT } from '@spotter/shared';
import { percentOf } from '../../lib/money';
import { account, type Posting } from '../money';

/** What a session paid from a balance moves: the balance pays the trainer's share and the fee. */
export function redeemEntries(b: { id: string; trainerId: string; currency: string }, cents: number): Posting[] {
  const fee = percentOf(cents, PLATFORM_FEE_PERCENT);
  return [
    { account: account.balance(b.id), amountCents: -cents, currency: b.currency },
    { account: account.trainerPending(b.trainerId), amountCents: cents - fee, currency: b.currency },
    { account: account.fees, amountCents: fee, currency: b.currency },
  ];
}
