import { lazy, Suspense } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

// The slot picker and checkout download only when someone opens the dialog.
const BookingFlow = lazy(() => import('./booking-flow').then((m) => ({ default: m.BookingFlow })));

type BookingDialogProps = {
  trainer: { _id: string; firstName: string; lastName: string; price: number };
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
};

/** 'Book now!': choose a free one-hour slot, hold it, pay (docs/product.md#booking-and-payment). */
export function BookingDialog({ trainer, isOpen, onOpenChange }: BookingDialogProps) {
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      {isOpen && (
        <DialogContent
          title={`Book a session with ${trainer.firstName}`}
          description="One hour, at a time that suits you, in your local time."
          className="flex max-h-[calc(100dvh-2rem)] max-w-xl flex-col overflow-y-auto"
        >
          <Suspense
            fallback={
              <div className="flex min-h-40 items-center justify-center">
                <Spinner label="Loading the booking…" />
              </div>
            }
          >
            <BookingFlow trainer={trainer} onClose={() => onOpenChange(false)} />
          </Suspense>
        </DialogContent>
      )}
    </Dialog>
  );
}
