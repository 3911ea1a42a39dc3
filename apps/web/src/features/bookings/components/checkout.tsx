import { FlaskConical } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { PAYMENT_MSG, zoneLabel, type TBooking, type TCaptureResponse } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { captureOrder, PaymentError, usePaymentsConfig } from '@/lib/api/payments';
import { formatDateTime, formatPrice, formatTime } from '@/lib/format';
import {
  CHECKOUT_MSG,
  createOrderFor,
  failureDetail,
  readCapture,
  stopOf,
  type CheckoutFailure,
  type CheckoutStop,
  type PayFor,
} from '../utils/payment-outcome';
import { placeOf, policyText } from '../utils/session-words';

// PayPal's SDK and buttons only when PayPal is the provider; the demo never loads them.
const PaypalButtons = lazy(() => import('./paypal-buttons').then((m) => ({ default: m.PaypalButtons })));

type CheckoutProps = {
  booking: TBooking;
  trainerName: string;
  onPaid: (captureId: string, booking?: TBooking) => void;
  /** A payment call the checkout cannot go on from (an unknown outcome, a refunded mismatch). */
  onStopped: (stop: CheckoutStop) => void;
  onChooseAnother: () => void;
  /** The zone the times are shown in (the browser's or the trainer's). */
  timeZone: string;
};

type PaymentProps = {
  /** What the order pays for: the held booking or the package. */
  order: PayFor;
  /** The amount the button names (the server sets what is charged). */
  amount: number;
  /** What a demo payment does, in words: 'confirms the booking'. */
  effect: string;
  onPaid: (captureId: string, answer: TCaptureResponse) => void;
  /** A payment call the checkout cannot go on from (an unknown outcome, a refunded mismatch). */
  onStopped: (stop: CheckoutStop) => void;
};

/** The demo provider: the same order and capture calls, and no money moves. */
function DemoCheckout({ order, amount, effect, onPaid, onStopped, label }: PaymentProps & { label: string }) {
  const [isPaying, setIsPaying] = useState(false);
  const [failure, setFailure] = useState<CheckoutFailure | null>(null);
  const [isDeclined, setIsDeclined] = useState(false);

  const pay = async () => {
    setIsPaying(true);
    setFailure(null);
    setIsDeclined(false);
    let orderId: string;
    try {
      orderId = (await createOrderFor(order)).id;
    } catch (error) {
      const stop = stopOf(error, 'order');
      if (stop) return onStopped(stop);
      setFailure({ title: CHECKOUT_MSG.orderFailed, detail: failureDetail(error) });
      setIsPaying(false);
      return;
    }
    try {
      const answer = await captureOrder(orderId);
      const result = readCapture(answer);
      if ('captureId' in result) {
        onPaid(result.captureId, answer);
        return;
      }
      if ('stop' in result) return onStopped(result.stop);
      setFailure(result.failure);
    } catch (error) {
      const stop = stopOf(error, 'capture');
      if (stop) return onStopped(stop);
      // docs/product.md#states: a declined card restarts the flow (a new order on the next try)
      if (error instanceof PaymentError && error.isDeclined) setIsDeclined(true);
      else setFailure({ title: CHECKOUT_MSG.captureFailed, detail: failureDetail(error) });
    }
    setIsPaying(false);
  };

  return (
    <div className="space-y-3 rounded-xl border-2 border-dashed border-line-strong bg-surface p-4">
      <p className="flex items-center gap-2 font-semibold text-ink">
        <FlaskConical className="size-5 shrink-0" aria-hidden="true" />
        {label}
      </p>
      <p className="text-sm text-muted">Spotter runs without a payment provider here, so paying {effect} and charges nothing.</p>
      {isDeclined && <Alert tone="warning">{CHECKOUT_MSG.declined}</Alert>}
      {failure && (
        <Alert tone="error" title={failure.title}>
          {failure.detail}
        </Alert>
      )}
      <Button size="lg" className="w-full" onClick={() => void pay()} isLoading={isPaying}>
        Pay {formatPrice(amount)}
      </Button>
    </div>
  );
}

/** The payment with the provider the server names (GET /api/payments/config): PayPal's buttons or the demo's. */
export function ProviderPayment(props: PaymentProps) {
  const config = usePaymentsConfig();
  if (config.isPending) {
    return (
      <>
        <span role="status" className="sr-only">
          Loading the checkout…
        </span>
        <Skeleton className="h-40 w-full rounded-xl" />
      </>
    );
  }
  if (config.isError) {
    return (
      <Alert
        tone="error"
        title={CHECKOUT_MSG.orderFailed}
        action={
          <Button variant="outline" onClick={() => void config.refetch()} isLoading={config.isFetching}>
            Retry
          </Button>
        }
      >
        {errorMessage(config.error)}
      </Alert>
    );
  }
  if (config.data.provider === 'paypal' && config.data.clientId) {
    return (
      <Suspense fallback={<Spinner label="Loading PayPal…" />}>
        <PaypalButtons
          clientId={config.data.clientId}
          currency={config.data.currency}
          order={props.order}
          onPaid={props.onPaid}
          onStopped={props.onStopped}
        />
      </Suspense>
    );
  }
  return <DemoCheckout {...props} label={config.data.label ?? PAYMENT_MSG.demoLabel} />;
}

/** Pays for a held booking with the provider the server names (GET /api/payments/config). */
export function Checkout({ booking, trainerName, onPaid, onStopped, onChooseAnother, timeZone }: CheckoutProps) {
  // 'Continue' is gone: the summary takes focus, so 'Pay' is the next Tab.
  const summaryRef = useRef<HTMLDListElement>(null);
  useEffect(() => summaryRef.current?.focus(), []);
  const place = placeOf(booking.location, { showLink: false });
  const payment = (
    <ProviderPayment
      order={{ bookingId: booking._id }}
      amount={booking.price}
      effect="confirms the booking"
      onPaid={(captureId, answer) => onPaid(captureId, answer.booking)}
      onStopped={onStopped}
    />
  );

  return (
    <div className="space-y-4">
      <dl
        ref={summaryRef}
        tabIndex={-1}
        className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 rounded-xl border border-line p-4 text-sm focus:outline-none"
      >
        <dt className="text-muted">Trainer</dt>
        <dd className="font-semibold text-ink">{trainerName}</dd>
        <dt className="text-muted">When</dt>
        <dd className="text-ink">
          {formatDateTime(booking.startsAt, timeZone)} (1 hour, {zoneLabel(timeZone, new Date(booking.startsAt))})
        </dd>
        {place && (
          <>
            <dt className="text-muted">Where</dt>
            <dd className="text-ink">
              {place.text}
              {booking.location?.kind === 'online' && ' (the link is shown once you have paid)'}
            </dd>
          </>
        )}
        <dt className="text-muted">Cancellation</dt>
        <dd data-testid="policy" className="font-semibold text-ink">
          {policyText(booking, timeZone)}
        </dd>
        <dt className="text-base font-bold text-ink">Total</dt>
        <dd className="text-base font-bold text-ink">{formatPrice(booking.price)}</dd>
      </dl>
      {booking.holdExpiresAt && (
        <p className="text-sm text-muted">We hold this time for you until {formatTime(booking.holdExpiresAt, timeZone)}.</p>
      )}
      {payment}
      <Button variant="ghost" onClick={onChooseAnother}>
        Choose another time
      </Button>
    </div>
  );
}
