import { lazy, Suspense, useLayoutEffect, useMemo, useRef } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

// The slot picker and checkout download only when someone opens the dialog.
const BookingFlow = lazy(() => import('./booking-flow').then((m) => ({ default: m.BookingFlow })));

type BookingDialogProps = {
  trainer: { _id: string; firstName: string; lastName: string; price: number };
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /**
   * Opens the conversation with the trainer, as the profile's 'Message' does: offered when there is
   * no free time. The dialog closes first and leaves focus to the conversation.
   */
  onMessage?: () => void;
};

/** 'Book now!': choose a free one-hour slot, hold it, pay (docs/product.md#booking-and-payment). */
export function BookingDialog({ trainer, isOpen, onOpenChange, onMessage }: BookingDialogProps) {
  // What opened the dialog ('Book now!', 'Continue to payment') gets focus back when it closes.
  const openerRef = useRef<HTMLElement | null>(null);
  const isGoingToChat = useRef(false);
  useLayoutEffect(() => {
    if (!isOpen) return;
    isGoingToChat.current = false;
    openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [isOpen]);
  // Read when the dialog has closed: after 'Message', focus stays where the conversation put it.
  const returnFocusTo = useMemo(
    () => ({
      get current(): HTMLElement | null {
        if (!isGoingToChat.current) return openerRef.current;
        return document.activeElement instanceof HTMLElement ? document.activeElement : null;
      },
    }),
    [],
  );

  const message =
    onMessage &&
    (() => {
      isGoingToChat.current = true;
      onOpenChange(false);
      onMessage();
    });

  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      {isOpen && (
        <DialogContent
          title={`Book a session with ${trainer.firstName}`}
          description="One hour, at a time that suits you."
          className="flex max-h-[calc(100dvh-2rem)] max-w-xl flex-col overflow-y-auto"
          returnFocusTo={returnFocusTo}
        >
          <Suspense
            fallback={
              <div className="flex min-h-40 items-center justify-center">
                <Spinner label="Loading the booking…" />
              </div>
            }
          >
            <BookingFlow trainer={trainer} onClose={() => onOpenChange(false)} onMessage={message} />
          </Suspense>
        </DialogContent>
      )}
    </Dialog>
  );
}
