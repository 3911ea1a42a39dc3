import { Maximize2 } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { galleryImages } from '../data/gallery-images';

const loadDialog = () => import('./gallery-dialog');
const GalleryDialog = lazy(() => loadDialog().then((m) => ({ default: m.GalleryDialog })));

/**
 * Ten tiles; each opens a zoom dialog. The dialog's code (Radix) loads on first use, warmed up when
 * the pointer or focus reaches the grid, so it stays out of the landing page's initial JavaScript.
 */
export function Gallery() {
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  const [wasOpened, setWasOpened] = useState(false);
  const tileRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const returnFocusTo = useRef<number | null>(null);
  const warmUp = () => void loadDialog();

  // The dialog has no Radix trigger (its code loads later), so focus is put back by hand, on the
  // tile of the picture shown last.
  useEffect(() => {
    if (openIndex !== null || returnFocusTo.current === null) return;
    tileRefs.current[returnFocusTo.current]?.focus();
    returnFocusTo.current = null;
  }, [openIndex]);

  return (
    <section aria-labelledby="gallery-title" className="bg-surface">
      <div className="mx-auto w-full max-w-7xl px-4 py-20 sm:px-6">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-wide text-accent-ink uppercase">Gallery</p>
          <h2 id="gallery-title" className="mt-2 font-display text-3xl font-bold text-ink sm:text-4xl">
            Every kind of training
          </h2>
          <p className="mt-3 text-lg text-muted">
            Lifting, running, stretching or skipping: our coaches cover it all. Select a picture to see it larger.
          </p>
        </div>
        <ul
          className="mt-10 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-5"
          onPointerEnter={warmUp}
          onFocus={warmUp}
        >
          {galleryImages.map((image, index) => (
            <li key={image.src}>
              <figure>
                <button
                  ref={(node) => {
                    tileRefs.current[index] = node;
                  }}
                  type="button"
                  aria-haspopup="dialog"
                  aria-label={`View ${image.caption} larger`}
                  onClick={() => {
                    setWasOpened(true);
                    setOpenIndex(index);
                  }}
                  className="group relative block w-full overflow-hidden rounded-2xl bg-surface-strong ring-1 ring-line"
                >
                  <img
                    src={image.src}
                    alt={image.alt}
                    width={400}
                    height={300}
                    loading="lazy"
                    decoding="async"
                    className="aspect-[4/3] h-auto w-full transition-transform duration-200 motion-safe:group-hover:scale-105"
                  />
                  <span
                    aria-hidden="true"
                    className="absolute top-2 right-2 flex size-8 items-center justify-center rounded-full bg-canvas/90 text-ink opacity-0 transition-opacity duration-150 group-hover:opacity-100 group-focus-visible:opacity-100"
                  >
                    <Maximize2 className="size-4" />
                  </span>
                </button>
                <figcaption className="mt-2 text-sm font-medium text-ink">{image.caption}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
      {wasOpened && (
        <Suspense fallback={null}>
          <GalleryDialog
            images={galleryImages}
            index={openIndex}
            onIndexChange={setOpenIndex}
            onClose={() => {
              returnFocusTo.current = openIndex;
              setOpenIndex(null);
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
