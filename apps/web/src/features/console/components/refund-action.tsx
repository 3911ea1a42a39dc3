import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { MONEY_MSG, ZConsoleRefundRequest, type TConsoleBooking, type TConsoleRefundResponse } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, inputClasses, TextField } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { newClientMessageId } from '@/lib/chat-outbox';
import { consoleApi } from '@/lib/api/console';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/money';

type RefundActionProps = {
  booking: TConsoleBooking;
  /** The refund was made (or requested: `pending`); the server's message is announced. */
  onDone: (refund: TConsoleRefundResponse) => void;
  /** Where the focus goes after the refund (the message): the row may change or go. */
  focusAfter: RefObject<HTMLElement | null>;
};

/**
 * "Refund…" on a session paid by card or from a balance with money left to give back (docs/product.md#refunds-by-operators):
 * a dialog asking how much (all that is left by default) and why (kept in the audit log), saying what
 * happens before the operator sends it. Escape and Cancel close it and the focus returns to the button.
 */
export function RefundAction({ booking, onDone, focusAfter }: RefundActionProps) {
  const [isOpen, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const open = (next: boolean) => {
    if (next) returnTo.current = null;
    setOpen(next);
  };
  return (
    <Dialog open={isOpen} onOpenChange={open}>
      <DialogTrigger className={buttonClasses({ variant: 'outline' })}>
        Refund…
        <span className="sr-only">
          : session of {booking.userName} with {booking.trainerName}
        </span>
      </DialogTrigger>
      <DialogContent
        title="Refund this session?"
        description={`${booking.userName} with ${booking.trainerName}: ${formatMoney(booking.price)}, ${formatMoney(booking.refundable)} left to refund.`}
        returnFocusTo={returnTo}
      >
        <RefundForm
          booking={booking}
          onDone={(refund) => {
            returnTo.current = focusAfter.current;
            setOpen(false);
            onDone(refund);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

type Errors = { amount?: string; reason?: string };

/** The server's words about the amount or the reason (a 400), if it named either. */
const fieldErrorsOf = (error: unknown): Errors | null => {
  if (!(error instanceof ApiError) || !error.errors) return null;
  const { amount, reason } = error.errors;
  return amount || reason ? { amount, reason } : null;
};

/** The amount typed, in dollars ("$25.50" and "25.5" alike); NaN when it is not a number. */
const dollarsOf = (text: string) => {
  const trimmed = text.trim().replace(/^\$/, '').replace(/,/g, '');
  return trimmed === '' ? Number.NaN : Number(trimmed);
};

function RefundForm({ booking, onDone }: { booking: TConsoleBooking; onDone: (refund: TConsoleRefundResponse) => void }) {
  const left = booking.refundable;
  const [all, setAll] = useState(true);
  const [amount, setAmount] = useState(String(left));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const amountField = useRef<HTMLInputElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  // one request at a time: a second press before the first re-render sends nothing
  const sending = useRef(false);
  // one key per opened dialog, sent again with a retry from it: the server makes one refund of it
  // however often it arrives (docs/product.md#refunds-by-operators)
  const [idempotencyKey] = useState(newClientMessageId);
  const id = useId();
  const refund = useMutation({
    mutationFn: (body: { amount?: number; reason: string }) => consoleApi.refundBooking(booking._id, body, idempotencyKey),
    onSuccess: onDone,
    onError: (error) => {
      const fields = fieldErrorsOf(error);
      if (fields) {
        setErrors(fields);
        if (fields.amount && !all) amountField.current?.focus();
        else if (fields.reason) reasonField.current?.focus();
      }
    },
    onSettled: () => {
      sending.current = false;
    },
  });
  // the dialog opens on the reason, the one thing the operator must give
  useEffect(() => reasonField.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const dollars = all ? undefined : dollarsOf(amount);
    const parsed = ZConsoleRefundRequest.safeParse({ reason, amount: dollars });
    const next: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] === 'amount' ? 'amount' : 'reason';
        next[key] ??= issue.message;
      }
    } else if (dollars !== undefined && dollars > left) {
      next.amount = MONEY_MSG.tooMuch(formatMoney(left));
    }
    setErrors(next);
    if (next.amount || next.reason) {
      (next.amount ? amountField : reasonField).current?.focus();
      return;
    }
    if (!parsed.success) return;
    sending.current = true;
    refund.mutate(all ? { reason: parsed.data.reason } : { amount: parsed.data.amount, reason: parsed.data.reason });
  };

  // a refusal about a field is shown by it; any other above the buttons
  const serverMessage = refund.isError && !fieldErrorsOf(refund.error) ? errorMessage(refund.error) : null;
  const sum = all ? formatMoney(left) : Number.isFinite(dollarsOf(amount)) ? formatMoney(dollarsOf(amount)) : 'the amount';

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="flex items-start gap-3">
        <input
          id={`${id}-all`}
          type="checkbox"
          checked={all}
          onChange={(event) => {
            setAll(event.target.checked);
            if (event.target.checked) setAmount(String(left));
            setErrors((e) => ({ ...e, amount: undefined }));
          }}
          className="mt-1 size-5 accent-ink"
        />
        <label htmlFor={`${id}-all`} className="text-sm font-semibold text-ink">
          Refund all that is left ({formatMoney(left)})
        </label>
      </div>
      <TextField
        ref={amountField}
        label="Amount in dollars"
        inputMode="decimal"
        autoComplete="off"
        prefix="$"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        disabled={all}
        hint={`At most ${formatMoney(left)}`}
        error={errors.amount}
      />
      <div>
        <label htmlFor={`${id}-reason`} className="mb-1.5 block text-sm font-semibold text-ink">
          Reason
        </label>
        <textarea
          ref={reasonField}
          id={`${id}-reason`}
          rows={3}
          required
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={[`${id}-reason-hint`, errors.reason ? `${id}-reason-error` : null].filter(Boolean).join(' ')}
          className={cn(inputClasses, 'resize-y', errors.reason ? 'border-danger' : 'border-line-strong hover:border-muted')}
        />
        <p id={`${id}-reason-hint`} className="mt-1.5 text-sm text-subtle">
          Kept in the audit log and told to both people.
        </p>
        <FieldError id={`${id}-reason-error`}>{errors.reason}</FieldError>
      </div>
      <p className="rounded-xl border border-line bg-surface px-4 py-3 text-sm text-ink">
        {sum} goes back to {booking.userName}&rsquo;s card. Both people are told by mail; the trainer&rsquo;s share goes down in
        proportion.
      </p>
      {serverMessage && <Alert tone="error">{serverMessage}</Alert>}
      <div className="flex flex-wrap justify-end gap-3">
        <DialogClose className={buttonClasses({ variant: 'outline' })}>Cancel</DialogClose>
        <Button type="submit" variant="secondary" isLoading={refund.isPending}>
          Send the refund
        </Button>
      </div>
    </form>
  );
}
