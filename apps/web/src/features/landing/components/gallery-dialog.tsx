import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import type { GalleryImage } from '../data/gallery-images';

type GalleryDialogProps = {
  images: GalleryImage[];
  /** The image shown; null when closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
};

/**
 * The zoomed picture (Radix dialog: focus trapped, Escape closes, focus returns to the tile).
 * Previous and next wrap around; the arrow keys do the same.
 */
export function GalleryDialog({ images, index, onIndexChange, onClose }: GalleryDialogProps) {
  const count = images.length;

  useEffect(() => {
    if (index === null) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft') onIndexChange((index - 1 + count) % count);
      else if (event.key === 'ArrowRight') onIndexChange((index + 1) % count);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [index, count, onIndexChange]);

  return (
    <Dialog open={index !== null} onOpenChange={(open) => !open && onClose()}>
      {index !== null && (
        <DialogContent title={images[index].caption} description={images[index].alt} className="sm:max-w-3xl">
          <img
            src={images[index].src}
            alt={images[index].alt}
            width={800}
            height={600}
            className="aspect-[4/3] h-auto w-full rounded-xl bg-surface-strong"
          />
          <div className="mt-4 flex items-center justify-between gap-3">
            <Button variant="outline" onClick={() => onIndexChange((index - 1 + count) % count)} aria-label="Previous image">
              <ChevronLeft className="size-5" aria-hidden="true" />
              <span className="max-sm:sr-only">Previous</span>
            </Button>
            <p className="text-sm font-medium text-muted" aria-live="polite" aria-atomic="true">
              <span className="sr-only">{images[index].caption}, </span>
              {index + 1} of {count}
            </p>
            <Button variant="outline" onClick={() => onIndexChange((index + 1) % count)} aria-label="Next image">
              <span className="max-sm:sr-only">Next</span>
              <ChevronRight className="size-5" aria-hidden="true" />
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
