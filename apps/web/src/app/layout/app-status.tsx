import { RefreshCw, WifiOff } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useAppUpdate } from '@/lib/app-update';
import { useOnline } from '@/lib/online';

export const OFFLINE_TEXT = "You're offline. Showing what was saved on this device.";

/**
 * The one offline notice (docs/product.md#installable-and-offline), under the header. The live
 * region is always in the page, so the notice is announced when the connection goes.
 */
export function OfflineBanner() {
  const isOnline = useOnline();
  return (
    <div role="status" aria-live="polite">
      {!isOnline && (
        <p className="flex items-center justify-center gap-2 border-b border-warning-line bg-warning-soft px-4 py-2 text-center text-sm font-semibold text-warning-ink">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          {OFFLINE_TEXT}
        </p>
      )}
    </div>
  );
}

/**
 * Offers a new version once it is installed and waiting (lib/service-worker.ts). It is applied only
 * when asked ('Update' reloads the page), never in the middle of what the person is doing.
 */
export function UpdatePrompt() {
  const offer = useAppUpdate();
  const [isUpdating, setIsUpdating] = useState(false);
  return (
    // no box of its own (no gap in the corner's stack while empty), yet always in the page to be announced
    <div role="status" aria-live="polite" className="contents">
      {offer && (
        <div className="pointer-events-auto flex max-w-sm items-center gap-3 rounded-card border border-ink-line bg-ink px-4 py-3 text-sm text-on-ink shadow-card">
          <RefreshCw className="size-5 shrink-0 text-accent" aria-hidden="true" />
          <p className="min-w-0 flex-1 font-semibold">A new version of Spotter is ready</p>
          <Button
            isLoading={isUpdating}
            onClick={() => {
              setIsUpdating(true);
              offer.apply();
            }}
          >
            Update
          </Button>
        </div>
      )}
    </div>
  );
}
