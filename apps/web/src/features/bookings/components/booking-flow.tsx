import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTimeIn, zoneCity, type TBooking } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { cancelBooking, useBookings, useRefreshBookings, useSlots } from '@/lib/api/bookings';
import { formatPrice } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { paidText, type CheckoutStop } from '../utils/payment-outcome';
import { googleCalendarUrl, icsHref, placeOf, policyText } from '../utils/session-words';
import { Checkout } from './checkout';
import { SlotPicker } from './slot-picker';
import { useZoneChoice, ZoneSwitch } from './zone-switch';

type Step =
  | { kind: 'pick' }
  | { kind: 'pay'; booking: TBooking }
  | { kind: 'stopped'; booking: TBooking; stop: CheckoutStop }
  | { kind: 'done'; booking: TBooking; captureId: string };

type BookingFlowProps = {
  trainer: { _id: string; firstName: string; lastName: string; price: number };
  onClose: () => void;
  /** Opens the conversation with the trainer (offered when there is no free time). */
  onMessage?: () => void;
};

/** The person's own unpaid hold with this trainer that has not lapsed, if any. */
function useOwnHold(trainerId: string) {
  const { token, role } = useSession();
  const bookings = useBookings(token, { enabled: role === 'user' });
  const now = Date.now();
  return (
    bookings.data?.find(
      (b) => b.trainerId === trainerId && b.status === 'pending' && b.holdExpiresAt !== null && Date.parse(b.holdExpiresAt) > now,
    ) ?? null
  );
}

function Confirmation({
  booking,
  trainerName,
  captureId,
  timeZone,
  onClose,
}: {
  booking: TBooking;
  trainerName: string;
  captureId: string;
  timeZone: string;
  onClose: () => void;
}) {
  const place = placeOf(booking.location, { showLink: true });
  return (
    <div className="space-y-4">
      <div
        role="status"
        className="flex items-start gap-3 rounded-xl border border-success-line bg-success-soft p-4 text-success"
      >
        <CircleCheck className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-display text-lg font-bold">You are booked!</p>
          <p className="font-medium">
            {paidText({ price: formatPrice(booking.price), trainerName, when: formatDateTimeIn(booking.startsAt, timeZone) })} (
            {zoneCity(timeZone)} time).
          </p>
          {place && (
            <p className="mt-1 break-words">
              Where:{' '}
              {place.href ? (
                <a href={place.href} target="_blank" rel="noreferrer" className="font-semibold underline underline-offset-4">
                  {place.text}
                </a>
              ) : (
                place.text
              )}
            </p>
          )}
          <p data-testid="policy" className="mt-1 font-semibold">
            {policyText(booking, timeZone)}
          </p>
          <p className="mt-1 text-sm">Payment reference: {captureId}</p>
        </div>
      </div>
      <p className="text-sm text-muted">It is on your profile with your other sessions.</p>
      <p className="flex flex-wrap gap-x-4 text-sm">
        <a
          href={googleCalendarUrl(booking)}
          target="_blank"
          rel="noreferrer"
          className="inline-flex min-h-11 items-center font-semibold text-ink underline underline-offset-4"
        >
          Add to Google Calendar
        </a>
        <a
          href={icsHref(booking)}
          download="session.ics"
          className="inline-flex min-h-11 items-center font-semibold text-ink underline underline-offset-4"
        >
          Download .ics
        </a>
      </p>
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onClose} className={buttonClasses({ variant: 'outline' })}>
          Close
        </button>
        <Link to={paths.profile.user.getHref()} className={buttonClasses()}>
          See my sessions
        </Link>
      </div>
    </div>
  );
}

/**
 * The checkout ended without a booking: the server's message, and no way to pay again from here as if
 * nothing happened. After a refunded mismatch a fresh hold may be tried; after an unknown outcome the
 * server is finding out (and e-mails), so there is only Close.
 */
function Stopped({ stop, onClose, onChooseAgain }: { stop: CheckoutStop; onClose: () => void; onChooseAgain: () => void }) {
  // The pay button is gone: the message takes focus, so a screen reader reads it and Tab reaches Close.
  const messageRef = useRef<HTMLDivElement>(null);
  useEffect(() => messageRef.current?.focus(), []);
  const isUnknown = stop.kind === 'unknown';
  return (
    <div className="space-y-4">
      <div ref={messageRef} tabIndex={-1} className="focus:outline-none">
        <Alert tone={isUnknown ? 'warning' : 'error'} title={isUnknown ? 'Payment not confirmed yet' : 'Not booked'}>
          {stop.message}
        </Alert>
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        {!isUnknown && (
          <button type="button" onClick={onChooseAgain} className={buttonClasses({ variant: 'outline' })}>
            Choose a time
          </button>
        )}
        <button type="button" onClick={onClose} className={buttonClasses({ variant: isUnknown ? 'primary' : 'outline' })}>
          Close
        </button>
      </div>
    </div>
  );
}

/** Pick a slot, pay for the held booking, see it confirmed. */
export function BookingFlow({ trainer, onClose, onMessage }: BookingFlowProps) {
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const refresh = useRefreshBookings();
  const slots = useSlots(trainer._id);
  const hold = useOwnHold(trainer._id);
  const zones = useZoneChoice();
  const trainerName = `${trainer.firstName} ${trainer.lastName}`;
  const trainerZone = (step.kind === 'pick' ? undefined : step.booking.timeZone) ?? slots.data?.timeZone ?? zones.browser;
  const timeZone = zones.zoneOf(trainerZone);

  // A hold left unpaid (dialog closed, another time chosen) is released at once, so the slot is free for others;
  // not one whose payment may have gone through (an unknown outcome): the server settles that one.
  const heldRef = useRef<string | null>(null);
  heldRef.current = step.kind === 'pay' || (step.kind === 'stopped' && step.stop.kind === 'mismatch') ? step.booking._id : null;
  useEffect(
    () => () => {
      if (heldRef.current) void cancelBooking(heldRef.current).catch(() => undefined);
    },
    [],
  );

  const releaseAndPick = (booking: TBooking) => {
    void cancelBooking(booking._id)
      .catch(() => undefined)
      .then(() => refresh(trainer._id));
    heldRef.current = null;
    setStep({ kind: 'pick' });
  };

  if (step.kind === 'pick') {
    return (
      <SlotPicker
        trainer={trainer}
        timeZone={timeZone}
        hold={hold}
        onMessage={onMessage}
        zoneSwitch={<ZoneSwitch trainerZones={[trainerZone]} choice={zones.choice} onChoose={zones.setChoice} />}
        onHeld={(booking) => setStep({ kind: 'pay', booking })}
      />
    );
  }

  if (step.kind === 'pay') {
    return (
      <Checkout
        booking={step.booking}
        trainerName={trainerName}
        timeZone={timeZone}
        onPaid={(captureId, booking) => {
          heldRef.current = null;
          const paid = booking ?? { ...step.booking, status: 'confirmed' as const };
          notify.success(
            paidText({ price: formatPrice(paid.price), trainerName, when: formatDateTimeIn(paid.startsAt, timeZone) }),
          );
          setStep({ kind: 'done', booking: paid, captureId });
          void refresh(trainer._id);
        }}
        onStopped={(stop) => {
          setStep({ kind: 'stopped', booking: step.booking, stop });
          void refresh(trainer._id);
        }}
        onChooseAnother={() => releaseAndPick(step.booking)}
      />
    );
  }

  if (step.kind === 'stopped') {
    return <Stopped stop={step.stop} onClose={onClose} onChooseAgain={() => releaseAndPick(step.booking)} />;
  }

  return (
    <Confirmation
      booking={step.booking}
      trainerName={trainerName}
      captureId={step.captureId}
      timeZone={timeZone}
      onClose={onClose}
    />
  );
}
