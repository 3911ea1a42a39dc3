import { z } from 'zod';
import { EmailSchema } from './fields';

/** PUT /api/trainer/payout: where the trainer's payouts go (a PayPal account's e-mail). */
export const ZPayoutAddressRequest = z.object({ email: EmailSchema });
export type TPayoutAddressRequest = z.infer<typeof ZPayoutAddressRequest>;
/** GET and PUT /api/trainer/payout (`email` null: none yet; payouts wait for one). */
export const ZPayoutAddressResponse = z.object({ email: z.string().nullable(), message: z.string().optional() });
export type TPayoutAddressResponse = z.infer<typeof ZPayoutAddressResponse>;

/**
 * pending: written, not sent yet · sent: the provider has it · paid · returned: unclaimed, returned
 * or failed, and back in the payable balance.
 */
export const PAYOUT_STATUS = ['pending', 'sent', 'paid', 'returned'] as const;
export const ZPayout = z.object({
  _id: z.string(),
  /** Dollars, as every amount of the API. */
  amount: z.number(),
  currency: z.string(),
  status: z.enum(PAYOUT_STATUS),
  createdAt: z.string(),
  /** How many sessions' shares it pays. */
  sessions: z.number().int(),
  /** The address it went to. */
  email: z.string(),
  /** Returned because PayPal refused the whole batch (not the address): it goes out with the next payout. */
  refused: z.boolean().optional(),
});
export type TPayout = z.infer<typeof ZPayout>;
/** GET /api/payouts (trainers), newest first. */
export const ZPayoutsResponse = z.object({ payouts: z.array(ZPayout) });
export type TPayoutsResponse = z.infer<typeof ZPayoutsResponse>;

/**
 * POST /api/payments/webhooks/paypal: PayPal's event as it sends it. Only what Spotter reads is
 * checked; the rest passes through to PayPal's signature check as it came.
 */
export const ZPaypalWebhookEvent = z.looseObject({
  id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  resource: z
    .looseObject({
      id: z.string().max(100).optional(),
      status: z.string().max(100).optional(),
      amount: z
        .looseObject({
          currency_code: z.string().regex(/^[A-Z]{3}$/),
          value: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/),
        })
        .optional(),
      supplementary_data: z
        .looseObject({ related_ids: z.looseObject({ order_id: z.string().max(100).optional() }).optional() })
        .optional(),
      /** A dispute (CUSTOMER.DISPUTE.*): its id, the captures it is about, and how it ended. */
      dispute_id: z.string().max(255).optional(),
      disputed_transactions: z
        .array(z.looseObject({ seller_transaction_id: z.string().max(100).optional() }))
        .max(50)
        .optional(),
      dispute_outcome: z.looseObject({ outcome_code: z.string().max(100).optional() }).optional(),
      /** A refund's links name its capture (rel `up`). */
      links: z
        .array(z.looseObject({ href: z.string().max(2048), rel: z.string().max(100).optional() }))
        .max(20)
        .optional(),
    })
    .optional(),
});
export type TPaypalWebhookEvent = z.infer<typeof ZPaypalWebhookEvent>;
export const ZWebhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });
