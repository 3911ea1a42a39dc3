import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { TBooking } from '@spotter/shared';
import { buttonClasses } from '@/components/ui/button';
import { cancelBooking, useRefreshBookings } from '@/lib/api/bookings';
import { formatDateTime, formatPrice } from '@/lib/format';
import { paths } from '@/lib/paths';
import { Checkout } from './checkout';
import { SlotPicker } from './slot-picker';

type Step = { kind: 'pick' } | { kind: 'pay'; booking: TBooking } | { kind: 'done'; booking: TBooking; captureId: string };

type BookingFlowProps = {
  trainer: { _id: string; firstName: string; lastName: string; price: number };
  onClose: () => void;
};

/** Pick a slot, pay for the held booking, see it confirmed. */
export function BookingFlow({ trainer, onClose }: BookingFlowProps) {
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const refresh = useRefreshBookings();

  // A hold left unpaid (dialog closed, another time chosen) is released at once, so the slot is free for others.
  const heldRef = useRef<string | null>(null);
  heldRef.current = step.kind === 'pay' ? step.booking._id : null;
  useEffect(
    () => () => {
      if (heldRef.current) void cancelBooking(heldRef.current).catch(() => undefined);
    },
    [],
  );

  if (step.kind === 'pick') {
    return <SlotPicker trainer={trainer} onHeld={(booking) => setStep({ kind: 'pay', booking })} />;
  }

  if (step.kind === 'pay') {
    return (
      <Checkout
        booking={step.booking}
        trainerName={`${trainer.firstName} ${trainer.lastName}`}
        onPaid={(captureId, booking) => {
          heldRef.current = null;
          setStep({ kind: 'done', booking: booking ?? { ...step.booking, status: 'confirmed' }, captureId });
          void refresh(trainer._id);
        }}
        onChooseAnother={() => {
          void cancelBooking(step.booking._id)
            .catch(() => undefined)
            .then(() => refresh(trainer._id));
          heldRef.current = null;
          setStep({ kind: 'pick' });
        }}
      />
    );
  }

  return (
    <div className="space-y-4">
      <div
        role="status"
        className="flex items-start gap-3 rounded-xl border border-success-line bg-success-soft p-4 text-success"
      >
        <CircleCheck className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-display text-lg font-bold">You are booked!</p>
          <p className="font-medium">
            {trainer.firstName} {trainer.lastName}, {formatDateTime(step.booking.startsAt)}. Paid{' '}
            {formatPrice(step.booking.price)}.
          </p>
          <p className="mt-1 text-sm">Payment reference: {step.captureId}</p>
        </div>
      </div>
      <p className="text-sm text-muted">
        It is on your profile with your other sessions. You can cancel for a full refund up to 24 hours before it starts.
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
