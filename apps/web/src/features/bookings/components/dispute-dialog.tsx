import { useEffect, useId, useRef, useState, type FormEvent, type Ref, type RefObject } from 'react';
import {
  DISPUTE_REASON_WORDS,
  DISPUTE_REASONS,
  DISPUTE_RULES,
  zoneLabel,
  type DisputeReason,
  type TBooking,
} from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, inputClasses, RadioGroup } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useDisputeBooking } from '@/lib/api/bookings';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';

const REASON_OPTIONS = DISPUTE_REASONS.map((value) => ({ value, label: DISPUTE_REASON_WORDS[value] }));

const isReason = (value: string): value is DisputeReason => (DISPUTE_REASONS as readonly string[]).includes(value);

/** What happens once a session is disputed (docs/product.md#disputes). */
const DISPUTE_TERMS = 'An operator will look at it and tell you both what they decided. The trainer’s payout waits until then.';

const STATUS_WORDS = { open: 'Disputed: waiting for an operator', decided: 'Dispute decided' } as const;

/**
 * The card's line about its dispute (`disputeStatus`); the focus comes here when the dialog that
 * opened the dispute closes, its button gone.
 */
export function DisputeStatusLine({ status, ref }: { status: keyof typeof STATUS_WORDS; ref?: Ref<HTMLParagraphElement> }) {
  return (
    <p ref={ref} tabIndex={-1} className="text-sm font-semibold text-ink focus:outline-none">
      {STATUS_WORDS[status]}
    </p>
  );
}

type DisputeDialogProps = {
  booking: TBooking;
  withName: string;
  timeZone: string;
  /** Where the focus goes when the dialog closes after the dispute was sent (its button is gone by then). */
  returnFocusTo: RefObject<HTMLElement | null>;
};

/**
 * 'Report a problem' with a session that has ended, while the server says it can be disputed
 * (`disputableUntil`): a reason and an optional note, sent to POST /api/bookings/:id/dispute. The
 * server's answer (queued for an operator, or decided at once by a rule) is shown in the dialog as it
 * words it; a refusal too. An open dialog stays open when the list drops the button, so the person reads it.
 */
export function DisputeDialog({ booking, withName, timeZone, returnFocusTo }: DisputeDialogProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [isSent, setIsSent] = useState(false);
  if (!booking.disputableUntil && !isOpen) return null;
  const when = formatDateTime(booking.startsAt, timeZone);
  const until = booking.disputableUntil;

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (open) setIsSent(false);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" aria-label={`Report a problem with the session with ${withName} on ${when}`}>
          Report a problem
        </Button>
      </DialogTrigger>
      {isOpen && (
        <DialogContent
          title="Report a problem with this session"
          description={`${withName}, ${when}.`}
          returnFocusTo={isSent ? returnFocusTo : undefined}
          className="max-h-[calc(100dvh-2rem)] overflow-y-auto max-sm:p-5"
        >
          {until && (
            <p className="mb-5 text-sm text-muted">
              You can report a problem until {formatDateTime(until, timeZone)} ({zoneLabel(timeZone, new Date(until))}).{' '}
              {DISPUTE_TERMS}
            </p>
          )}
          <DisputeForm booking={booking} onSent={() => setIsSent(true)} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function DisputeForm({ booking, onSent }: { booking: TBooking; onSent: () => void }) {
  const dispute = useDisputeBooking();
  const [reason, setReason] = useState<DisputeReason | null>(null);
  const [note, setNote] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ reason?: string; note?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [answer, setAnswer] = useState<string | null>(null);
  const reasonsRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLButtonElement>(null);
  const noteId = useId();
  const counterId = `${noteId}-counter`;
  const noteErrorId = `${noteId}-error`;
  const answerId = `${noteId}-answer`;

  // The form is gone once answered: focus goes to the way out, next to the answer.
  useEffect(() => {
    if (answer) doneRef.current?.focus();
  }, [answer]);

  if (answer) {
    return (
      <div className="space-y-6">
        <div id={answerId}>
          <Alert tone="success">{answer}</Alert>
        </div>
        <div className="flex justify-end">
          <DialogClose asChild>
            {/* focused, it reads the answer too, for a screen reader that missed the announcement */}
            <Button ref={doneRef} aria-describedby={answerId}>
              Done
            </Button>
          </DialogClose>
        </div>
      </div>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (dispute.isPending) return;
    setFailure(null);
    if (!reason) {
      setFieldErrors({ reason: 'Choose what went wrong' });
      reasonsRef.current?.querySelector('input')?.focus();
      return;
    }
    setFieldErrors({});
    dispute.mutate(
      { booking, input: { reason, note: note.trim() } },
      {
        onSuccess: ({ message }) => {
          onSent();
          setAnswer(message);
        },
        onError: (error) => {
          setFailure(errorMessage(error));
          if (error instanceof ApiError && error.errors) setFieldErrors({ reason: error.errors.reason, note: error.errors.note });
        },
      },
    );
  };

  const isSending = dispute.isPending;
  return (
    <form noValidate onSubmit={onSubmit} aria-busy={isSending || undefined}>
      <fieldset disabled={isSending} className="min-w-0 space-y-5">
        <div ref={reasonsRef}>
          <RadioGroup
            legend="What went wrong?"
            name="reason"
            options={REASON_OPTIONS}
            error={fieldErrors.reason}
            onChange={(event) => {
              if (isReason(event.target.value)) setReason(event.target.value);
              setFieldErrors(({ note: noteError }) => ({ note: noteError }));
            }}
          />
        </div>
        <div>
          <div className="mb-1.5 flex items-baseline justify-between gap-3">
            <label htmlFor={noteId} className="block text-sm font-semibold text-ink">
              What happened <span className="font-normal text-subtle">(optional)</span>
            </label>
            <span id={counterId} className="text-xs text-subtle">
              {note.length}/{DISPUTE_RULES.noteMax}
            </span>
          </div>
          <textarea
            id={noteId}
            rows={3}
            maxLength={DISPUTE_RULES.noteMax}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            aria-invalid={fieldErrors.note ? true : undefined}
            aria-describedby={[counterId, fieldErrors.note ? noteErrorId : ''].filter(Boolean).join(' ')}
            className={cn(inputClasses, 'resize-y', fieldErrors.note ? 'border-danger' : 'border-line-strong hover:border-muted')}
          />
          <FieldError id={noteErrorId}>{fieldErrors.note}</FieldError>
        </div>
      </fieldset>
      {failure && (
        <Alert tone="error" className="mt-5">
          {failure}
        </Alert>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <DialogClose asChild>
          <Button variant="outline" disabled={isSending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" isLoading={isSending}>
          Send
        </Button>
      </div>
    </form>
  );
}
