import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import { cn } from '@/lib/cn';

export const Dialog = RadixDialog.Root;
export const DialogTrigger = RadixDialog.Trigger;
export const DialogClose = RadixDialog.Close;

type DialogContentProps = {
  title: string;
  /** Visually hidden when false; screen readers still get it. */
  showTitle?: boolean;
  description?: string;
  children: ReactNode;
  /** `center` is a modal card; `sheet` slides in from the right (mobile menu). */
  variant?: 'center' | 'sheet';
  className?: string;
  /** Where focus goes when it closes, for a dialog opened without a Radix trigger (the phone menu). */
  returnFocusTo?: RefObject<HTMLElement | null>;
};

/** Radix dialog: focus trapped, Escape and overlay click close it, focus returns to the trigger. */
export function DialogContent({
  title,
  showTitle = true,
  description,
  children,
  variant = 'center',
  className,
  returnFocusTo,
}: DialogContentProps) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className="fixed inset-0 z-50 bg-ink/60 motion-safe:animate-fade-in" />
      <RadixDialog.Content
        onCloseAutoFocus={(event) => {
          const target = returnFocusTo?.current;
          if (!target) return;
          event.preventDefault();
          target.focus();
        }}
        className={cn(
          'fixed z-50 bg-canvas text-ink shadow-card focus:outline-none motion-safe:animate-fade-in',
          variant === 'center' &&
            'top-1/2 left-1/2 w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-card p-6',
          variant === 'sheet' && 'inset-y-0 right-0 flex w-[min(22rem,100vw)] flex-col overflow-y-auto p-5',
          className,
        )}
      >
        <div className="mb-4 flex items-center justify-between gap-4">
          <RadixDialog.Title className={cn('font-display text-xl font-bold', !showTitle && 'sr-only')}>{title}</RadixDialog.Title>
          <RadixDialog.Close
            aria-label="Close"
            className="ml-auto inline-flex size-11 items-center justify-center rounded-full hover:bg-surface"
          >
            <X className="size-5" aria-hidden="true" />
          </RadixDialog.Close>
        </div>
        {description ? (
          <RadixDialog.Description className="mb-4 text-sm text-muted">{description}</RadixDialog.Description>
        ) : (
          <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
        )}
        {children}
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}
