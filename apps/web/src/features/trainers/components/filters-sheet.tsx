import type { ReactNode, RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';

type FiltersSheetProps = {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /** The 'Filters' button, which gets focus back on closing. */
  returnFocusTo: RefObject<HTMLElement | null>;
  /** The label of the button that closes the sheet ("Show 48 trainers"). */
  showLabel: string;
  children: ReactNode;
};

/** The filters of small screens in a sheet; its own chunk, so the dialog code loads on first use. */
export function FiltersSheet({ isOpen, onOpenChange, returnFocusTo, showLabel, children }: FiltersSheetProps) {
  return (
    <Dialog open={isOpen} onOpenChange={onOpenChange}>
      <DialogContent title="Filters" variant="sheet" returnFocusTo={returnFocusTo}>
        {children}
        <DialogClose asChild>
          <Button className="mt-6 w-full">{showLabel}</Button>
        </DialogClose>
      </DialogContent>
    </Dialog>
  );
}
