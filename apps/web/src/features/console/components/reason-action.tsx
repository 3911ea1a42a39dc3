import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { ZOperatorReason } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, inputClasses } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';

/** Red is for errors and destructive actions only (docs/product.md#design). */
const dangerButton =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-full bg-danger px-5 text-sm font-semibold whitespace-nowrap text-on-ink ' +
  'transition-opacity duration-150 hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60';

type ReasonActionProps = {
  /** The button that opens the dialog (hidden words may say what it acts on). */
  label: ReactNode;
  /** The dialog's title, a question. */
  title: string;
  /** What the action does, in full, before the operator confirms. */
  description: string;
  confirmLabel: string;
  /** Destructive: the buttons are red. */
  danger?: boolean;
  reasonHint?: string;
  /** The reason may be left empty (an approval); the action is then given ''. */
  isReasonOptional?: boolean;
  /** Does the action; the server's message is announced. */
  act: (reason: string) => Promise<{ message: string }>;
  onDone: (message: string) => void;
  /** Where the focus goes after the action (the message), the button that opened the dialog may be gone. */
  focusAfter: RefObject<HTMLElement | null>;
};

/**
 * An operator action that changes someone's account or content: a button opening a dialog that says
 * what will happen and asks for the reason kept in the audit log (ZOperatorReason), with confirm and
 * cancel. Escape and Cancel close it and the focus returns to the button.
 */
export function ReasonAction({
  label,
  title,
  description,
  confirmLabel,
  danger = false,
  reasonHint,
  isReasonOptional = false,
  act,
  onDone,
  focusAfter,
}: ReasonActionProps) {
  const [isOpen, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const open = (next: boolean) => {
    if (next) returnTo.current = null;
    setOpen(next);
  };
  return (
    <Dialog open={isOpen} onOpenChange={open}>
      <DialogTrigger className={danger ? dangerButton : buttonClasses({ variant: 'outline' })}>{label}</DialogTrigger>
      <DialogContent title={title} description={description} returnFocusTo={returnTo}>
        <ReasonForm
          confirmLabel={confirmLabel}
          danger={danger}
          reasonHint={reasonHint}
          isReasonOptional={isReasonOptional}
          act={act}
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

type ReasonFormProps = Pick<ReasonActionProps, 'confirmLabel' | 'danger' | 'reasonHint' | 'isReasonOptional' | 'act' | 'onDone'>;

function ReasonForm({
  confirmLabel,
  danger,
  reasonHint = 'Kept in the audit log.',
  isReasonOptional,
  act,
  onDone,
}: ReasonFormProps) {
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const action = useMutation({ mutationFn: act, onSuccess: ({ message }) => onDone(message) });
  // the dialog opens on the reason (before the dialog's own focus would go to its first button, Close)
  useEffect(() => field.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // an optional reason is taken as written (the field holds 500 characters at most), or none
    if (isReasonOptional) {
      setInvalid(undefined);
      action.mutate(reason.trim());
      return;
    }
    const parsed = ZOperatorReason.safeParse({ reason });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message);
      field.current?.focus();
      return;
    }
    setInvalid(undefined);
    action.mutate(parsed.data.reason);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div>
        <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-ink">
          {isReasonOptional ? 'Reason (optional)' : 'Reason'}
        </label>
        <textarea
          ref={field}
          id={id}
          rows={3}
          required={!isReasonOptional}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[`${id}-hint`, invalid ? `${id}-error` : null].filter(Boolean).join(' ')}
          className={cn(inputClasses, 'resize-y', invalid ? 'border-danger' : 'border-line-strong hover:border-muted')}
        />
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-subtle">
          {reasonHint}
        </p>
        <FieldError id={`${id}-error`}>{invalid}</FieldError>
      </div>
      {action.isError && <Alert tone="error">{errorMessage(action.error)}</Alert>}
      <div className="flex flex-wrap justify-end gap-3">
        <DialogClose className={buttonClasses({ variant: 'outline' })}>Cancel</DialogClose>
        {danger ? (
          <button type="submit" className={dangerButton} disabled={action.isPending} aria-busy={action.isPending || undefined}>
            {action.isPending && <Spinner label={null} className="size-4" />}
            {confirmLabel}
          </button>
        ) : (
          <Button type="submit" variant="secondary" isLoading={action.isPending}>
            {confirmLabel}
          </Button>
        )}
      </div>
    </form>
  );
}
