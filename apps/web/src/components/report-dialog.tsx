import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { REPORT_REASON_WORDS, REPORT_REASONS, type ReportKind, type ReportReason } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { FieldError, inputClasses, RadioGroup } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useCreateReport } from '@/lib/api/reports';
import { cn } from '@/lib/cn';

/** ZCreateReportRequest's limit on the note. */
const REPORT_NOTE_MAX = 1000;

const TITLES: Record<ReportKind, string> = {
  review: 'Report this review',
  message: 'Report this message',
  profile: 'Report this profile',
};

const REASON_OPTIONS = REPORT_REASONS.map((value) => ({ value, label: REPORT_REASON_WORDS[value] }));

const isReason = (value: string): value is ReportReason => (REPORT_REASONS as readonly string[]).includes(value);

type ReportDialogProps = {
  kind: ReportKind;
  id: string;
  /** What is reported, in words: "the review by Sara A.". */
  subject: string;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /** The button that opened it: focus goes back there when it closes. */
  returnFocusTo: RefObject<HTMLElement | null>;
};

/** What the server answered: a report received, or one this person had already sent (409). */
type Outcome = { tone: 'success' | 'info'; message: string };

/**
 * A reason from the short list and an optional note, sent to POST /api/reports. The server's answer
 * is shown as it words it: received, already reported, or why it was refused.
 */
export function ReportDialog({ kind, id, subject, isOpen, onOpenChange, returnFocusTo }: ReportDialogProps) {
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      {isOpen && (
        <DialogContent
          title={TITLES[kind]}
          description={`What is wrong with ${subject}? An operator will look at it, and we will tell you what we decided.`}
          returnFocusTo={returnFocusTo}
          className="max-h-[calc(100dvh-2rem)] overflow-y-auto max-sm:p-5"
        >
          <ReportForm kind={kind} id={id} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function ReportForm({ kind, id }: { kind: ReportKind; id: string }) {
  const report = useCreateReport();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ reason?: string; note?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const reasonsRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const noteId = useId();
  const counterId = `${noteId}-counter`;
  const noteErrorId = `${noteId}-error`;
  const outcomeId = `${noteId}-outcome`;

  // The form is gone once answered: focus goes to the way out, next to the answer.
  useEffect(() => {
    if (outcome) closeRef.current?.focus();
  }, [outcome]);

  if (outcome) {
    return (
      <div className="space-y-6">
        <div id={outcomeId}>
          <Alert tone={outcome.tone}>{outcome.message}</Alert>
        </div>
        <div className="flex justify-end">
          <DialogClose asChild>
            {/* focused, it reads the answer too, for a screen reader that missed the announcement */}
            <Button ref={closeRef} aria-describedby={outcomeId}>
              Done
            </Button>
          </DialogClose>
        </div>
      </div>
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (report.isPending) return;
    setFailure(null);
    if (!reason) {
      setFieldErrors({ reason: 'Choose a reason' });
      reasonsRef.current?.querySelector('input')?.focus();
      return;
    }
    setFieldErrors({});
    report.mutate(
      { kind, id, reason, note: note.trim() },
      {
        onSuccess: ({ message }) => setOutcome({ tone: 'success', message }),
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'ALREADY_REPORTED') {
            setOutcome({ tone: 'info', message: error.message });
            return;
          }
          setFailure(errorMessage(error));
          if (error instanceof ApiError && error.errors) {
            setFieldErrors({ reason: error.errors.reason, note: error.errors.note });
          }
        },
      },
    );
  };

  const isSending = report.isPending;
  return (
    <form noValidate onSubmit={onSubmit} aria-busy={isSending || undefined}>
      <fieldset disabled={isSending} className="min-w-0 space-y-5">
        <div ref={reasonsRef}>
          <RadioGroup
            legend="Reason"
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
              Note <span className="font-normal text-subtle">(optional)</span>
            </label>
            <span id={counterId} className="text-xs text-subtle">
              {note.length}/{REPORT_NOTE_MAX}
            </span>
          </div>
          <textarea
            id={noteId}
            rows={3}
            maxLength={REPORT_NOTE_MAX}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            aria-invalid={fieldErrors.note ? true : undefined}
            aria-describedby={[counterId, fieldErrors.note ? noteErrorId : ''].filter(Boolean).join(' ')}
            placeholder="Anything the operator should know"
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
          Send report
        </Button>
      </div>
    </form>
  );
}
