import { useEffect, useRef, useState } from 'react';
import type { TCaptureResponse } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { captureOrder, PaymentError } from '@/lib/api/payments';
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

/** The little of PayPal's JS SDK used here (https://developer.paypal.com/sdk/js/reference/). */
type PaypalActions = { restart: () => Promise<void> };
type PaypalSdk = {
  Buttons: (options: {
    style?: Record<string, string>;
    createOrder: () => Promise<string>;
    onApprove: (data: { orderID: string }, actions: PaypalActions) => Promise<void>;
    onError?: (error: unknown) => void;
  }) => { render: (container: HTMLElement) => Promise<void>; close?: () => Promise<void> };
};

const SDK_ID = 'paypal-sdk';

/** Loads PayPal's SDK once, with the public client id and the funding options of docs/product.md#booking-and-payment. */
function loadSdk(clientId: string, currency: string): Promise<PaypalSdk> {
  const existing = (window as { paypal?: PaypalSdk }).paypal;
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const params = new URLSearchParams({
      'client-id': clientId,
      currency,
      components: 'buttons',
      'enable-funding': 'paylater,venmo,card',
    });
    const script = (document.getElementById(SDK_ID) as HTMLScriptElement | null) ?? document.createElement('script');
    script.id = SDK_ID;
    script.src = `https://www.paypal.com/sdk/js?${params}`;
    script.addEventListener('load', () => {
      const sdk = (window as { paypal?: PaypalSdk }).paypal;
      if (sdk) resolve(sdk);
      else reject(new Error('PayPal did not start'));
    });
    script.addEventListener('error', () => reject(new Error('PayPal could not be loaded')));
    if (!script.isConnected) document.head.append(script);
  });
}

type PaypalButtonsProps = {
  clientId: string;
  currency: string;
  /** What the order pays for: a held booking, the held weeks of a series, or a package. */
  order: PayFor;
  onPaid: (captureId: string, answer: TCaptureResponse) => void;
  onStopped: (stop: CheckoutStop) => void;
};

/** PayPal's own buttons (cards, Pay Later, Venmo); the order and capture go through Spotter's server. */
export function PaypalButtons({ clientId, currency, order, onPaid, onStopped }: PaypalButtonsProps) {
  const container = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<CheckoutFailure | null>(null);
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;
  const onStoppedRef = useRef(onStopped);
  onStoppedRef.current = onStopped;
  // the buttons are made again only when what is paid for changes, not on each render's new object
  const orderKey = JSON.stringify(order);

  useEffect(() => {
    let isCancelled = false;
    let buttons: ReturnType<PaypalSdk['Buttons']> | undefined;
    loadSdk(clientId, currency)
      .then((paypal) => {
        if (isCancelled || !container.current) return;
        buttons = paypal.Buttons({
          style: { shape: 'pill', layout: 'vertical' },
          createOrder: async () => {
            setFailure(null);
            try {
              return (await createOrderFor(JSON.parse(orderKey) as PayFor)).id;
            } catch (error) {
              const stop = stopOf(error, 'order');
              if (stop) onStoppedRef.current(stop);
              else setFailure({ title: CHECKOUT_MSG.orderFailed, detail: failureDetail(error) });
              throw error;
            }
          },
          onApprove: async (data, actions) => {
            try {
              const answer = await captureOrder(data.orderID);
              const result = readCapture(answer);
              if ('captureId' in result) onPaidRef.current(result.captureId, answer);
              else if ('stop' in result) onStoppedRef.current(result.stop);
              else setFailure(result.failure);
            } catch (error) {
              const stop = stopOf(error, 'capture');
              if (stop) return onStoppedRef.current(stop);
              // docs/product.md#states: a declined card (recoverable) restarts the flow
              if (error instanceof PaymentError && error.isDeclined) return actions.restart();
              setFailure({ title: CHECKOUT_MSG.captureFailed, detail: failureDetail(error) });
            }
          },
        });
        return buttons.render(container.current);
      })
      .catch((error: unknown) => {
        if (!isCancelled) setFailure({ title: CHECKOUT_MSG.orderFailed, detail: failureDetail(error) });
      });
    return () => {
      isCancelled = true;
      void buttons?.close?.().catch(() => undefined);
    };
  }, [clientId, currency, orderKey]);

  return (
    <div className="space-y-3">
      {failure && (
        <Alert tone="error" title={failure.title}>
          {failure.detail}
        </Alert>
      )}
      <div ref={container} className="min-h-36" />
    </div>
  );
}
