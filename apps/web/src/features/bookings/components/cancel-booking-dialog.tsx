import { useState } from 'react';
import type { TBooking } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useCancelBooking } from '@/lib/api/bookings';
import { formatDateTime, formatPrice } from '@/lib/format';
import { formatMoney } from '@/lib/money';

/** What cancelling does to this booking, as the server last said (`isRefundable` is as of the list's load). */
function consequence(booking: TBooking) {
  if (booking.status === 'pending') return 'Nothing was charged; the time is released for others.';
  if (booking.isRefundable && booking.paidFromBalance)
    return `The session goes back to your package balance (${formatMoney(booking.price)}), to book another time; nothing is refunded to your card or PayPal.`;
  if (booking.isRefundable) return `You get your ${formatPrice(booking.price)} back in full.`;
  return 'This session starts within 24 hours, so it can no longer be cancelled or refunded.';
}

/** 'Cancel' of one session, with a confirmation; a refusal (409: too late, already over) is shown as the server words it. */
export function CancelBookingDialog({ booking, withName }: { booking: TBooking; withName: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const cancel = useCancelBooking();
  const [failure, setFailure] = useState<string | null>(null);

  const onConfirm = () => {
    setFailure(null);
    cancel.mutate(booking, {
      onSuccess: () => setIsOpen(false),
      onError: (error) => setFailure(errorMessage(error)),
    });
  };

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (!open) setFailure(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" aria-label={`Cancel the session with ${withName} on ${formatDateTime(booking.startsAt)}`}>
          Cancel
        </Button>
      </DialogTrigger>
      <DialogContent title="Cancel this session?" description={`${withName}, ${formatDateTime(booking.startsAt)}.`}>
        <p className="text-muted">{consequence(booking)}</p>
        {failure && (
          <Alert tone="error" className="mt-4">
            {failure}
          </Alert>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Keep it</Button>
          </DialogClose>
          <Button onClick={onConfirm} isLoading={cancel.isPending}>
            Cancel session
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
