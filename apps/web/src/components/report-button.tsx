import { Flag } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import type { ReportKind } from '@spotter/shared';
import { cn } from '@/lib/cn';

// The dialog (Radix, the reasons, the form) loads on first use, warmed up when the pointer or focus
// reaches the button: reviews and messages are on pages people open often, and few of them report.
const loadDialog = () => import('./report-dialog');
const ReportDialog = lazy(() => loadDialog().then((m) => ({ default: m.ReportDialog })));

type ReportButtonProps = {
  kind: ReportKind;
  /** The review's, the message's or the trainer's id. */
  id: string;
  /** What is reported, in words, for the button's name and the dialog: "review by Sara A.". */
  subject: string;
  /** The visible words; the accessible name always says what is reported. */
  label?: string;
  /** `sm` beside a chat message's time; `md` (44 px high) elsewhere. */
  size?: 'sm' | 'md';
  className?: string;
  /** Extra description of the button, e.g. the id of the message's text. */
  'aria-describedby'?: string;
};

/**
 * 'Report' on a review, a message or a trainer's profile (docs/product.md#reports-and-moderation), for
 * signed-in people on what others wrote; the caller decides whether to show it.
 */
export function ReportButton({ kind, id, subject, label = 'Report', size = 'md', className, ...aria }: ReportButtonProps) {
  const [isOpen, setIsOpen] = useState(false);
  const [wasOpened, setWasOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const warmUp = () => void loadDialog();
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        aria-label={`Report ${subject}`}
        aria-describedby={aria['aria-describedby']}
        onPointerEnter={warmUp}
        onFocus={warmUp}
        onClick={() => {
          setWasOpened(true);
          setIsOpen(true);
        }}
        className={cn(
          'inline-flex items-center gap-1.5 rounded-full font-semibold text-muted transition-colors duration-150 hover:bg-surface hover:text-ink',
          size === 'md' ? 'min-h-11 px-3 text-sm' : 'min-h-8 px-2 text-xs',
          className,
        )}
      >
        <Flag className={size === 'md' ? 'size-4' : 'size-3.5'} aria-hidden="true" />
        {label}
      </button>
      {wasOpened && (
        // The dialog's keys reach the button's ancestors through React (a portal bubbles there): its
        // Escape closes it alone, not also a panel it was opened from (the chat on a profile).
        <div className="contents" onKeyDown={(event) => event.key === 'Escape' && event.stopPropagation()}>
          <Suspense fallback={null}>
            <ReportDialog
              kind={kind}
              id={id}
              subject={`the ${subject}`}
              isOpen={isOpen}
              onOpenChange={setIsOpen}
              returnFocusTo={buttonRef}
            />
          </Suspense>
        </div>
      )}
    </>
  );
}
