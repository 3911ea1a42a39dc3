import { useState } from 'react';
import type { TBooking } from '@spotter/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useReleaseBooking } from '@/lib/api/bookings';
import { formatDateTime } from '@/lib/format';

/** What releasing does, word for word as the card's dialog says it (docs/product.md#releasing-a-late-session). */
const RELEASE_TERMS =
  'Starts in less than 24 hours, so it cannot be refunded. We offer it to others; if somebody books it, you are refunded in full and we e-mail you. Until then it stays yours.';

/** What the card says once the session is released. */
export const RELEASED_LINE = 'Offered to others: refunded in full if somebody books it';

/**
 * 'Release for resale' of a paid session inside 24 hours (`canRelease`), with a confirmation that says
 * what happens; a refusal (409: released already, started) is shown as the server words it. An open
 * dialog stays open when the list drops the button, so the person reads why.
 */
export function ReleaseBookingDialog({ booking, withName, timeZone }: { booking: TBooking; withName: string; timeZone: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const release = useReleaseBooking();
  const [failure, setFailure] = useState<string | null>(null);
  if (!booking.canRelease && !isOpen) return null;
  const when = formatDateTime(booking.startsAt, timeZone);

  const onConfirm = () => {
    setFailure(null);
    release.mutate(booking, {
      onSuccess: () => setIsOpen(false),
      onError: (error) => setFailure(errorMessage(error)),
    });
  };

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (!open) setFailure(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" aria-label={`Release the session with ${withName} on ${when} for resale`}>
          Release for resale
        </Button>
      </DialogTrigger>
      <DialogContent title="Release this session for resale?" description={`${withName}, ${when}.`}>
        <p className="text-muted">{RELEASE_TERMS}</p>
        {failure && (
          <Alert tone="error" className="mt-4">
            {failure}
          </Alert>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Keep it</Button>
          </DialogClose>
          <Button onClick={onConfirm} isLoading={release.isPending}>
            Release for resale
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
