import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BOOKING_MSG,
  DEFAULT_CODE_OF_STATUS,
  PAYMENT_MSG,
  ZCancelBookingRequest,
  ZCancelBookingResponse,
  ZCaptureResponse,
  ZCreateOrderRequest,
  ZErrorResponse,
  ZIdParam,
  ZOrderResponse,
  ZPaymentErrorResponse,
  ZPaymentsConfigResponse,
  ZPaymentsResponse,
  ZPaypalWebhookEvent,
  ZWebhookAnswer,
} from '@spotter/shared';
import type { RateLimits } from '../../platform/rate-limits';
import { callerOf, type Auth } from '../../plugins/auth';
import { rawJsonBody } from '../../plugins/empty-json-body';
import { codeOfStatus, errorBody } from '../../plugins/errors';
import { PaymentRejectedError, ProviderUnavailableError } from '../money';
import { cancelBooking } from './cancel-booking';
import { createPackageOrder } from './packages';
import { captureOrder } from './capture-order';
import type { BookingsContext } from './context';
import { createOrder } from './create-order';
import { createSeriesOrder } from './weekly-series';
import { receivePaypalWebhook } from './paypal-webhook';
import type { PaymentsService } from './payments.service';

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
};
/** Declines pass through with the provider's status (422 INSTRUMENT_DECLINED…); 502/504 when it is down or slow. */
const providerErrors = { 422: ZPaymentErrorResponse, '4xx': ZPaymentErrorResponse, 502: ZErrorResponse, 504: ZErrorResponse };

/** Answers a provider failure itself (the app's error handler hides 5xx messages); rethrows anything else. */
function sendProviderError(reply: FastifyReply, err: unknown, { capturing = false } = {}) {
  if (err instanceof PaymentRejectedError) {
    const status =
      err.statusCode >= 400 && err.statusCode < 500 && err.statusCode in DEFAULT_CODE_OF_STATUS ? err.statusCode : 422;
    return reply.status(status).send({
      ...errorBody(codeOfStatus(status), err.message || PAYMENT_MSG.providerRejected),
      ...(err.providerName ? { name: err.providerName } : {}),
      ...(err.details ? { details: err.details } : {}),
      ...(err.debugId ? { debug_id: err.debugId } : {}),
    });
  }
  if (err instanceof ProviderUnavailableError) {
    reply.log.warn({ err }, 'payment provider unavailable');
    const code = err.reason === 'timeout' ? 'PROVIDER_TIMEOUT' : 'PROVIDER_UNAVAILABLE';
    // a capture's money may have moved: recorded as unknown and checked (capture-order.ts), and said so
    const message = capturing
      ? PAYMENT_MSG.captureUnknown
      : code === 'PROVIDER_TIMEOUT'
        ? PAYMENT_MSG.providerTimeout
        : PAYMENT_MSG.providerDown;
    const body = errorBody(code, message);
    return reply.status(body.statusCode).send(body);
  }
  throw err;
}

export function paymentsRoutes(service: PaymentsService, ctx: BookingsContext, auth: Auth, limits: Pick<RateLimits, 'writes'>) {
  return async function (app: FastifyInstance) {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/payments/config',
      {
        schema: {
          tags: ['payments'],
          summary: 'Which payment provider takes payments (paypal, or demo: no money moves)',
          response: { 200: ZPaymentsConfigResponse },
        },
      },
      async () => service.config(),
    );

    r.post(
      '/orders',
      {
        schema: {
          tags: ['payments'],
          summary:
            'Create the payment order for your held booking, the held weeks of your weekly series (seriesId) or a package (packageId); one per booking or series, asking again answers the same order: the amount is decided on the server, the price when the slot was held',
          body: ZCreateOrderRequest,
          response: { 200: ZOrderResponse, ...errors, ...providerErrors },
        },
        preHandler: [auth.optionalAuth, ...limits.writes],
      },
      async (req, reply) => {
        try {
          if (req.body.packageId !== undefined)
            return await createPackageOrder(ctx, { caller: req.caller, packageId: req.body.packageId });
          if (req.body.seriesId !== undefined)
            return await createSeriesOrder(ctx, { caller: req.caller, seriesId: req.body.seriesId });
          return await createOrder(ctx, { caller: req.caller, bookingId: req.body.bookingId ?? '' });
        } catch (err) {
          return sendProviderError(reply, err);
        }
      },
    );

    r.post(
      '/orders/:orderID/capture',
      {
        schema: {
          tags: ['payments'],
          summary: 'Capture your approved order: confirms the booking; a repeated capture charges nothing more',
          params: z.object({ orderID: z.string().min(1).max(64) }),
          response: { 200: ZCaptureResponse, ...errors, ...providerErrors },
        },
        preHandler: [auth.optionalAuth, ...limits.writes],
      },
      async (req, reply) => {
        try {
          return await captureOrder(ctx, { caller: req.caller, orderId: req.params.orderID });
        } catch (err) {
          return sendProviderError(reply, err, { capturing: true });
        }
      },
    );

    r.post(
      '/payments/webhooks/paypal',
      {
        schema: {
          tags: ['payments'],
          summary:
            'PayPal webhooks (PAYMENT.CAPTURE.COMPLETED, .DENIED, .REFUNDED, .REVERSED; CUSTOMER.DISPUTE.CREATED, .RESOLVED): verified with PayPal’s verify-webhook-signature call before anything changes, applied once per event id',
          body: ZPaypalWebhookEvent,
          response: { 200: ZWebhookAnswer, ...errors, 503: ZErrorResponse },
        },
        preHandler: [...limits.writes],
      },
      async (req, reply) => {
        try {
          return await receivePaypalWebhook(ctx, { headers: req.headers, event: req.body, raw: rawJsonBody(req) });
        } catch (err) {
          // PayPal did not answer the signature check: 503, and PayPal delivers the event again
          if (err instanceof ProviderUnavailableError) {
            return reply.code(503).send(errorBody('NOT_CONFIGURED', PAYMENT_MSG.providerDown));
          }
          throw err;
        }
      },
    );

    // cancellation lives here because a confirmed booking is cancelled by refunding its payment
    r.post(
      '/bookings/:id/cancel',
      {
        schema: {
          tags: ['bookings'],
          summary:
            'Cancel a booking (its user or trainer): a hold is released; a paid session is refunded in full, by its user more than 24 h ahead, by its trainer any time before it starts (with an optional reason the user sees)',
          params: ZIdParam(BOOKING_MSG.notFound),
          body: ZCancelBookingRequest,
          response: { 200: ZCancelBookingResponse, ...errors, 502: ZErrorResponse, 504: ZErrorResponse },
        },
        preHandler: [auth.requireAuth(), ...limits.writes],
      },
      async (req, reply) => {
        try {
          return await cancelBooking(ctx, { caller: callerOf(req), bookingId: req.params.id, reason: req.body?.reason });
        } catch (err) {
          return sendProviderError(reply, err);
        }
      },
    );

    r.get(
      '/payments',
      {
        schema: {
          tags: ['payments'],
          summary: 'Your payments (users) or earnings (trainers), with totals',
          response: { 200: ZPaymentsResponse, ...errors },
        },
        preHandler: auth.requireAuth(),
      },
      async (req) => service.listPayments(callerOf(req)),
    );
  };
}
