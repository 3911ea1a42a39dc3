import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { ZDisputeDecision, type TConsoleDispute, type TDisputeDecision } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, inputClasses, RadioGroup, TextField } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { consoleApi } from '@/lib/api/console';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/money';

type Outcome = TDisputeDecision['outcome'];
type Field = 'outcome' | 'amount' | 'reason';
type FieldErrors = Partial<Record<Field, string>>;

const OUTCOMES: readonly Outcome[] = ['refund-full', 'refund-part', 'no-refund'];
const isOutcome = (value: string): value is Outcome => OUTCOMES.some((outcome) => outcome === value);
const isField = (value: unknown): value is Field => value === 'outcome' || value === 'amount' || value === 'reason';

type DecideDisputeProps = {
  dispute: TConsoleDispute;
  onDone: (message: string) => void;
  /** Where the focus goes after the decision (the message): the button that opened the dialog is gone. */
  focusAfter: RefObject<HTMLElement | null>;
};

/**
 * 'Decide…' of an open dispute: a full refund of what is left, a part refund (an amount in dollars) or
 * none, with the reason the user and the trainer read (ZDisputeDecision), sent to POST
 * /api/console/disputes/:id/decide. Escape and Cancel close it and the focus returns to the button;
 * the server's refusals are shown by field (an amount above what is left) or in the dialog (decided already).
 */
export function DecideDispute({ dispute, onDone, focusAfter }: DecideDisputeProps) {
  const [isOpen, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const open = (next: boolean) => {
    if (next) returnTo.current = null;
    setOpen(next);
  };
  return (
    <Dialog open={isOpen} onOpenChange={open}>
      <DialogTrigger className={buttonClasses({ variant: 'outline' })}>
        Decide…<span className="sr-only">{`: ${dispute.userName}’s session with ${dispute.trainerName}`}</span>
      </DialogTrigger>
      <DialogContent
        title="Decide this dispute"
        description={`${dispute.userName} paid ${formatMoney(dispute.paid)}; ${formatMoney(dispute.refundable)} is left to refund. Both people are told by mail what you decide and why.`}
        returnFocusTo={returnTo}
        className="max-h-[calc(100dvh-2rem)] overflow-y-auto max-sm:p-5"
      >
        <DecisionForm
          dispute={dispute}
          onDone={(message) => {
            returnTo.current = focusAfter.current;
            setOpen(false);
            onDone(message);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

/** The amount field's text as dollars: undefined when empty, NaN when it is not a number. */
const dollarsOf = (text: string) => (text.trim() === '' ? undefined : Number(text.trim().replace(/^\$/, '')));

function DecisionForm({ dispute, onDone }: { dispute: TConsoleDispute; onDone: (message: string) => void }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const outcomesRef = useRef<HTMLDivElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const focusFirst = (byField: FieldErrors) => {
    if (byField.outcome) outcomesRef.current?.querySelector('input')?.focus();
    else if (byField.amount) amountRef.current?.focus();
    else if (byField.reason) reasonRef.current?.focus();
  };

  const decide = useMutation({
    mutationFn: (decision: TDisputeDecision) => consoleApi.decideDispute(dispute._id, decision),
    onSuccess: ({ message }) => onDone(message),
    onError: (error) => {
      if (!(error instanceof ApiError) || !error.errors) return;
      const byField: FieldErrors = {};
      for (const [field, message] of Object.entries(error.errors)) if (isField(field)) byField[field] = message;
      setErrors(byField);
      focusFirst(byField);
    },
  });
  // the dialog opens on the outcomes (before the dialog's own focus would go to its first button, Close)
  useEffect(() => outcomesRef.current?.querySelector('input')?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (decide.isPending) return;
    const dollars = outcome === 'refund-part' ? dollarsOf(amount) : undefined;
    const byField: FieldErrors = {};
    if (dollars !== undefined && !Number.isFinite(dollars)) byField.amount = 'Give the amount in dollars, like 25.50';
    const parsed = ZDisputeDecision.safeParse({ outcome: outcome ?? undefined, amount: dollars, reason });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (isField(field)) byField[field] ??= issue.message;
      }
    }
    setErrors(byField);
    if (!parsed.success || Object.keys(byField).length > 0) {
      focusFirst(byField);
      return;
    }
    decide.mutate(parsed.data);
  };

  const isSending = decide.isPending;
  const hasFieldErrors = decide.error instanceof ApiError && Object.keys(decide.error.errors ?? {}).some(isField);
  return (
    <form onSubmit={submit} noValidate aria-busy={isSending || undefined} className="space-y-4">
      <div ref={outcomesRef}>
        <RadioGroup
          legend="Outcome"
          name="outcome"
          options={[
            { value: 'refund-full', label: `Full refund of ${formatMoney(dispute.refundable)}` },
            { value: 'refund-part', label: 'Part refund' },
            { value: 'no-refund', label: 'No refund' },
          ]}
          error={errors.outcome}
          onChange={(event) => {
            if (isOutcome(event.target.value)) setOutcome(event.target.value);
            setErrors(({ reason: reasonError }) => ({ reason: reasonError }));
          }}
        />
      </div>
      {outcome === 'refund-part' && (
        <TextField
          ref={amountRef}
          label="Amount to refund"
          inputMode="decimal"
          autoComplete="off"
          prefix="$"
          hint={`In dollars, up to ${formatMoney(dispute.refundable)}.`}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={errors.amount}
        />
      )}
      <div>
        <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-ink">
          Reason
        </label>
        <textarea
          ref={reasonRef}
          id={id}
          rows={3}
          required
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={[`${id}-hint`, errors.reason ? `${id}-error` : null].filter(Boolean).join(' ')}
          className={cn(inputClasses, 'resize-y', errors.reason ? 'border-danger' : 'border-line-strong hover:border-muted')}
        />
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-subtle">
          The user and the trainer read it; it is kept in the audit log.
        </p>
        <FieldError id={`${id}-error`}>{errors.reason}</FieldError>
      </div>
      {decide.isError && !hasFieldErrors && <Alert tone="error">{errorMessage(decide.error)}</Alert>}
      <div className="flex flex-wrap justify-end gap-3">
        <DialogClose className={buttonClasses({ variant: 'outline' })}>Cancel</DialogClose>
        <Button type="submit" variant="secondary" isLoading={isSending}>
          Send decision
        </Button>
      </div>
    </form>
  );
}
