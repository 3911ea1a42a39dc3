import { MessageCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CANCEL_REASON_MAX, formatDateTimeIn, type TBooking } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { inputClasses } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatPrice } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useMarkNoShow, useTrainerCancel } from '../api/trainer-actions';

/** Destructive actions look destructive: a red outline to open, solid red to confirm. */
const dangerOutline =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-full border border-danger-line bg-canvas px-4 text-sm font-semibold whitespace-nowrap text-danger transition-colors duration-150 hover:bg-danger-soft';
const dangerSolid =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-full bg-danger px-5 text-sm font-semibold whitespace-nowrap text-on-ink transition-colors duration-150 hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60';

const clientName = (b: TBooking) => `${b.userFirstName} ${b.userLastName}`.trim();
const when = (b: TBooking) => formatDateTimeIn(b.startsAt, b.timeZone);

/** The trainer's inbox opened on the conversation with this client, as the inbox's own rows open it (`?with=`). */
function conversationHref(booking: TBooking) {
  const params = new URLSearchParams({ with: booking.userId, name: booking.userFirstName });
  return `${paths.inbox.trainer.getHref()}?${params.toString()}`;
}

function MessageClient({ booking }: { booking: TBooking }) {
  return (
    <Link to={conversationHref(booking)} className={buttonClasses({ variant: 'outline', className: 'px-4' })}>
      <MessageCircle className="size-4" aria-hidden="true" />
      Message {booking.userFirstName}
    </Link>
  );
}

/** 'Cancel': asks for a reason the client sees; the trainer's cancellation always refunds the client in full. */
function TrainerCancelDialog({ booking }: { booking: TBooking }) {
  const [isOpen, setIsOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const cancel = useTrainerCancel();
  const reasonId = useId();
  const isPaid = booking.status === 'confirmed';
  const tooLong = reason.trim().length > CANCEL_REASON_MAX;

  const onConfirm = () => {
    setFailure(null);
    cancel.mutate(
      { booking, reason },
      {
        onSuccess: () => {
          setIsOpen(false);
          setReason('');
        },
        onError: (error) => setFailure(errorMessage(error)),
      },
    );
  };

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (!open) setFailure(null);
      }}
    >
      <DialogTrigger className={dangerOutline} aria-label={`Cancel the session with ${clientName(booking)} on ${when(booking)}`}>
        Cancel
      </DialogTrigger>
      <DialogContent title="Cancel this session?" description={`${clientName(booking)}, ${when(booking)}.`}>
        <p className="font-semibold text-ink">
          {!isPaid
            ? 'Nothing was charged; the time is released.'
            : booking.paidFromBalance
              ? 'The session goes back to the client’s package balance.'
              : `The client is refunded in full (${formatPrice(booking.price)}).`}
        </p>
        <div className="mt-4">
          <label htmlFor={reasonId} className="mb-1.5 block text-sm font-semibold text-ink">
            Reason for {booking.userFirstName}
          </label>
          <textarea
            id={reasonId}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={3}
            aria-describedby={`${reasonId}-hint`}
            aria-invalid={tooLong ? true : undefined}
            className={cn(inputClasses, tooLong ? 'border-danger' : 'border-line-strong')}
          />
          <p id={`${reasonId}-hint`} className={cn('mt-1.5 text-sm', tooLong ? 'font-medium text-danger' : 'text-subtle')}>
            {tooLong
              ? `Keep the reason under ${CANCEL_REASON_MAX} characters`
              : `${booking.userFirstName} sees this in the app and in the mail.`}
          </p>
        </div>
        {failure && (
          <Alert tone="error" className="mt-4">
            {failure}
          </Alert>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Keep it</Button>
          </DialogClose>
          <button type="button" className={dangerSolid} onClick={onConfirm} disabled={cancel.isPending || tooLong}>
            {cancel.isPending && <Spinner className="size-4" label={null} />}
            Cancel session
          </button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** 'Mark no-show', after the start, with a confirmation; no money moves. */
function NoShowDialog({ booking }: { booking: TBooking }) {
  const [isOpen, setIsOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const noShow = useMarkNoShow();

  const onConfirm = () => {
    setFailure(null);
    noShow.mutate(booking, {
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
      <DialogTrigger className={dangerOutline} aria-label={`Mark no-show: ${clientName(booking)} on ${when(booking)}`}>
        Mark no-show
      </DialogTrigger>
      <DialogContent title="Mark as a no-show?" description={`${clientName(booking)}, ${when(booking)}.`}>
        <p className="text-muted">The session stays paid; it shows as a no-show in your history and the client’s.</p>
        {failure && (
          <Alert tone="error" className="mt-4">
            {failure}
          </Alert>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Keep it</Button>
          </DialogClose>
          <button type="button" className={dangerSolid} onClick={onConfirm} disabled={noShow.isPending}>
            {noShow.isPending && <Spinner className="size-4" label={null} />}
            Mark no-show
          </button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** What a trainer can do on one schedule or history row. */
export function ScheduleRowActions({ booking }: { booking: TBooking }) {
  return (
    <div className="flex flex-wrap gap-2">
      <MessageClient booking={booking} />
      {booking.canCancel && <TrainerCancelDialog booking={booking} />}
      {booking.canMarkNoShow && <NoShowDialog booking={booking} />}
    </div>
  );
}
