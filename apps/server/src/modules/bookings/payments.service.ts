import type { FastifyBaseLogger } from 'fastify';
import {
  BOOKING_MSG,
  BOOKING_RULES,
  CURRENCY,
  PAYMENT_MSG,
  PLATFORM_FEE_PERCENT,
  ROLE_MSG,
  SERVER_MSG,
  type TBooking,
  type TCaptureResponse,
  type TOrderResponse,
  type TPayment,
  type TPaymentsResponse,
} from '@spotter/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { centsToDecimalString, fromCents, percentOf, toCents } from '../../lib/money';
import type { Caller } from '../../plugins/auth';
import { plainName } from './booking-mails';
import type { BookingsService } from './bookings.service';
import { FORMER_MEMBER } from '../accounts';
import { ProviderUnavailableError, type PaymentProvider, type ProviderName } from './payments/payment-provider';
import * as repo from './payments.repo';

const MINUTE = 60_000;
/** A capture in progress keeps its hold this long, past any provider timeout. */
const CAPTURE_HOLD_MS = 5 * MINUTE;
/** An order restarts the hold for this long, but a hold never outlives its booking by more than HOLD_CAP_MS. */
const HOLD_CAP_MS = 30 * MINUTE;

type PaymentsDeps = {
  db: Db;
  /** The provider new orders go to. */
  provider: PaymentProvider;
  /** Every provider that may hold an older payment (for refunds and captures of earlier orders). */
  providers: Partial<Record<ProviderName, PaymentProvider>>;
  bookings: BookingsService;
  log: FastifyBaseLogger;
  now?: () => Date;
};

const money = (cents: number) => ({ currency_code: CURRENCY, value: centsToDecimalString(cents) });

function requireUser(caller: Caller | undefined): Caller {
  if (!caller) throw new AppError('UNAUTHENTICATED', ROLE_MSG.loginToBook);
  if (caller.role !== 'user') throw new AppError('FORBIDDEN_ROLE', ROLE_MSG.trainersCantBook);
  return caller;
}

function toPayment(row: repo.PaymentListRow, role: 'user' | 'trainer'): TPayment {
  const paid = row.status === 'completed';
  const fee = paid && role === 'trainer' ? row.feeCents : 0;
  return {
    _id: row.id,
    bookingId: row.bookingId,
    trainerId: row.trainerId,
    userId: row.userId,
    trainerFirstName: row.trainerDeletedAt ? FORMER_MEMBER.firstName : row.trainerFirstName,
    trainerLastName: row.trainerDeletedAt ? FORMER_MEMBER.lastName : row.trainerLastName,
    userFirstName: row.userDeletedAt ? FORMER_MEMBER.firstName : row.userFirstName,
    userLastName: row.userDeletedAt ? FORMER_MEMBER.lastName : row.userLastName,
    startsAt: row.startsAt.toISOString(),
    provider: row.provider,
    orderId: row.providerOrderId,
    captureId: row.captureId,
    status: row.status,
    currency: row.currency,
    amount: fromCents(row.amountCents),
    fee: fromCents(fee),
    net: fromCents(paid ? row.amountCents - fee : 0),
    paidAt: row.createdAt.toISOString(),
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

export function createPaymentsService({ db, provider, providers, bookings, log, now = () => new Date() }: PaymentsDeps) {
  const providerOf = (name: string | null | undefined): PaymentProvider => {
    const p = name ? providers[name as ProviderName] : provider;
    if (!p) throw new ProviderUnavailableError('down', `the ${name} payment provider is not configured`);
    return p;
  };

  /** The answer the spec reads (purchase_units[0].payments.captures[0]), for a stored payment. */
  function captureAnswer(
    orderId: string,
    payment: { captureId: string; amountCents: number; currency: string },
    booking: TBooking,
  ): TCaptureResponse {
    return {
      id: orderId,
      status: 'COMPLETED',
      purchase_units: [
        {
          reference_id: booking._id,
          payments: {
            captures: [
              {
                id: payment.captureId,
                status: 'COMPLETED',
                amount: { currency_code: payment.currency, value: centsToDecimalString(payment.amountCents) },
              },
            ],
          },
        },
      ],
      booking,
    };
  }

  return {
    config() {
      return provider.name === 'paypal'
        ? { provider: 'paypal' as const, clientId: provider.clientId, currency: CURRENCY }
        : { provider: 'demo' as const, currency: CURRENCY, label: PAYMENT_MSG.demoLabel };
    },

    /**
     * An order for the caller's own held booking, for the trainer's price as it is now. Nothing the
     * browser sends about amounts or products is used (docs/product.md#booking-and-payment).
     */
    async createOrder(caller: Caller | undefined, bookingId: string): Promise<TOrderResponse> {
      const user = requireUser(caller);
      const row = await bookings.findBooking(bookingId);
      if (!row) throw new AppError('NOT_FOUND', BOOKING_MSG.notFound);
      if (row.userId !== user.id) throw new AppError('FORBIDDEN', BOOKING_MSG.notFound);
      if (row.status === 'confirmed' || row.status === 'completed') throw new AppError('ALREADY_PAID', BOOKING_MSG.alreadyPaid);
      const at = now();
      if (row.status !== 'pending' || !row.holdExpiresAt || row.holdExpiresAt <= at)
        throw new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
      const trainer = await bookings.findBookableTrainer(row.trainerId);
      if (!trainer || trainer.priceCents === null) throw new AppError('NOT_FOUND', SERVER_MSG.trainerNotFound);
      const amountCents = trainer.priceCents;

      const order = await provider.createOrder({
        // the same booking at the same price is the same order, however often the browser asks
        requestId: `spotter-order-${row.id}-${amountCents}`,
        amountCents,
        currency: CURRENCY,
        description: `Spotter: one-hour session with ${plainName(`${row.trainerFirstName} ${row.trainerLastName}`)}`,
        referenceId: row.id,
      });
      const holdUntil = new Date(
        Math.min(at.getTime() + BOOKING_RULES.holdMinutes * MINUTE, row.createdAt.getTime() + HOLD_CAP_MS),
      );
      const attached = await bookings.attachOrder(row.id, {
        userId: user.id,
        provider: provider.name,
        providerOrderId: order.id,
        priceCents: amountCents,
        holdExpiresAt: holdUntil,
        now: at,
      });
      if (!attached) throw new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
      if (holdUntil > row.holdExpiresAt) await bookings.scheduleHoldExpiry(row.id, holdUntil);
      return { id: order.id, status: order.status, amount: money(amountCents) };
    },

    /**
     * Captures the caller's order. On COMPLETED the booking is confirmed and the payment stored in
     * one transaction; a second capture answers the stored result and charges nothing.
     */
    async captureOrder(caller: Caller | undefined, orderId: string): Promise<TCaptureResponse> {
      const user = requireUser(caller);
      const row = await bookings.findBookingByOrder(orderId);
      if (!row) throw new AppError('NOT_FOUND', PAYMENT_MSG.orderNotFound);
      if (row.userId !== user.id) throw new AppError('FORBIDDEN', PAYMENT_MSG.orderNotFound);
      const p = providerOf(row.provider);

      /** The stored result of an earlier (or a concurrent, just committed) capture of this order. */
      const storedAnswer = async () => {
        const stored = await repo.findPaymentByOrder(db, p.name, orderId);
        const fresh = stored && (await bookings.findBooking(row.id));
        return stored && fresh ? captureAnswer(orderId, stored, bookings.toBooking(fresh)) : undefined;
      };
      const earlier = await storedAnswer();
      if (earlier) return earlier;
      // the hold must be alive, and stays so for the capture: the job cannot expire it meanwhile
      if (row.status !== 'pending' || !(await bookings.extendLiveHold(row.id, new Date(now().getTime() + CAPTURE_HOLD_MS)))) {
        const concurrent = await storedAnswer();
        if (concurrent) return concurrent;
        throw row.status === 'confirmed'
          ? new AppError('ALREADY_PAID', BOOKING_MSG.alreadyPaid)
          : new AppError('HOLD_EXPIRED', BOOKING_MSG.holdExpired);
      }

      const result = await p.captureOrder({ orderId, requestId: `spotter-capture-${orderId}` });
      const capture = result.capture;
      if (result.status !== 'COMPLETED' || !capture || capture.status !== 'COMPLETED') {
        // e.g. PENDING (an eCheck) or DECLINED: nothing is paid yet, the booking stays as it is
        log.warn({ orderId, status: result.status, captureStatus: capture?.status }, 'capture did not complete');
        return {
          id: result.orderId,
          status: result.status,
          purchase_units: [
            { reference_id: row.id, payments: { captures: capture ? [{ id: capture.id, status: capture.status }] : [] } },
          ],
          booking: bookings.toBooking(row),
        };
      }
      if (capture.amountCents !== undefined && capture.amountCents !== row.priceCents) {
        log.error({ orderId, captured: capture.amountCents, expected: row.priceCents }, 'captured amount differs from the order');
      }
      const amountCents = capture.amountCents ?? row.priceCents;
      const at = now();

      const outcome = await db.transaction(async (tx) => {
        const { confirmed, mailJobs } = await bookings.confirmInTransaction(tx, row);
        await repo.insertPayment(tx, {
          bookingId: row.id,
          userId: row.userId,
          trainerId: row.trainerId,
          provider: p.name,
          providerOrderId: orderId,
          captureId: capture.id,
          amountCents,
          feeCents: confirmed ? percentOf(amountCents, PLATFORM_FEE_PERCENT) : 0,
          currency: capture.currency ?? row.currency,
          status: 'completed',
          raw: result.raw as object,
          createdAt: at,
        });
        return { confirmed, mailJobs };
      });

      if (!outcome.confirmed) {
        const again = await repo.findPaymentByOrder(db, p.name, orderId);
        const fresh = await bookings.findBooking(row.id);
        // a concurrent capture of the same order confirmed it: answer what it stored
        if (again && fresh && ['confirmed', 'completed', 'refunded'].includes(fresh.status))
          return captureAnswer(orderId, again, bookings.toBooking(fresh));
        // the booking was cancelled while the money moved: give it back at once
        if (again && again.status === 'completed') await refundPayment(again, 'the booking was cancelled during its capture');
        throw new AppError('BOOKING_CLOSED', BOOKING_MSG.notPayable);
      }
      await bookings.runMails(outcome.mailJobs);
      return captureAnswer(
        orderId,
        { captureId: capture.id, amountCents, currency: capture.currency ?? row.currency },
        bookings.toBooking((await bookings.findBooking(row.id))!),
      );
    },

    /**
     * Cancels a booking for its user or trainer: a hold is released; a confirmed session more than
     * 24 h ahead is refunded through the provider and its slot freed; later than that, 409.
     */
    async cancelBooking(caller: Caller, bookingId: string): Promise<{ message: string; booking: TBooking }> {
      const row = await bookings.bookingOf(caller, bookingId);
      const view = bookings.toBooking(row);
      if (view.status === 'pending') {
        if (!(await bookings.releaseHold(row))) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
        return { message: BOOKING_MSG.cancelled, booking: bookings.toBooking((await bookings.findBooking(row.id))!) };
      }
      if (view.status !== 'confirmed') throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
      if (!view.isRefundable) throw new AppError('CANCEL_TOO_LATE', BOOKING_MSG.tooLateToCancel);

      const payment = await repo.findPaymentOfBooking(db, row.id);
      if (!payment || payment.status !== 'completed') {
        log.error({ bookingId: row.id }, 'a confirmed booking without a completed payment');
        throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
      }
      const changed = await refundPayment(payment, 'cancelled by ' + caller.role);
      if (!changed) throw new AppError('BOOKING_CLOSED', BOOKING_MSG.alreadyOver);
      return { message: BOOKING_MSG.refunded, booking: bookings.toBooking((await bookings.findBooking(row.id))!) };
    },

    /** What the caller paid (users) or earned (trainers), with totals that add up to the rows. */
    async listPayments(caller: Caller): Promise<TPaymentsResponse> {
      const rows = await repo.listPaymentsOf(db, caller);
      const list = rows.map((r) => toPayment(r, caller.role));
      let charged = 0;
      let refunded = 0;
      let fees = 0;
      for (const r of rows) {
        charged += r.amountCents;
        if (r.status === 'refunded') refunded += r.amountCents;
        else if (caller.role === 'trainer') fees += r.feeCents;
      }
      const upcoming = await bookings.listUpcomingConfirmed(caller);
      const upcomingCents = upcoming.reduce((sum, b) => sum + toCents(b.price), 0);
      return {
        role: caller.role,
        feePercent: caller.role === 'trainer' ? PLATFORM_FEE_PERCENT : 0,
        currency: CURRENCY,
        payments: list,
        totals: {
          count: rows.length,
          charged: fromCents(charged),
          refunded: fromCents(refunded),
          fees: fromCents(fees),
          net: fromCents(charged - refunded - fees),
        },
        upcoming: { count: upcoming.length, amount: fromCents(upcomingCents), bookings: upcoming },
      };
    },
  };

  /**
   * Refunds a payment in full through the provider it was made with, then marks the payment and its
   * booking refunded in one transaction. The request id makes a repeated refund a no-op at the provider.
   */
  async function refundPayment(
    payment: NonNullable<Awaited<ReturnType<typeof repo.findPaymentOfBooking>>>,
    reason: string,
  ): Promise<boolean> {
    const refund = await providerOf(payment.provider).refundCapture({
      captureId: payment.captureId,
      amountCents: payment.amountCents,
      currency: payment.currency,
      requestId: `spotter-refund-${payment.id}`,
    });
    log.info({ paymentId: payment.id, refundId: refund.id, reason }, 'payment refunded');
    const { changed, mailJobs } = await db.transaction(async (tx) => {
      await repo.markRefunded(tx, payment.id, { refundId: refund.id, refundRaw: refund.raw, at: now() });
      return bookings.refundInTransaction(tx, payment.bookingId);
    });
    await bookings.runMails(mailJobs);
    return changed;
  }
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
