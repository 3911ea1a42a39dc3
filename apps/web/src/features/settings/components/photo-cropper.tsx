import { useId, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { IMAGE_MAX_EDGE } from '@spotter/shared';

/** Where the square crop sits: its centre in image pixels and the zoom (1 = the short side). */
export type Crop = { zoom: number; x: number; y: number };

const MIN_ZOOM = 1;
const MAX_ZOOM = 4;

type Size = { width: number; height: number };

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/** The crop's side in image pixels. */
const sideOf = (image: Size, zoom: number) => Math.min(image.width, image.height) / zoom;

/** Keeps the square inside the picture. */
function clampCrop(image: Size, crop: Crop): Crop {
  const zoom = clamp(crop.zoom, MIN_ZOOM, MAX_ZOOM);
  const half = sideOf(image, zoom) / 2;
  return { zoom, x: clamp(crop.x, half, image.width - half), y: clamp(crop.y, half, image.height - half) };
}

export const centredCrop = (image: Size): Crop => ({ zoom: 1, x: image.width / 2, y: image.height / 2 });

/** Draws the cropped square (at most IMAGE_MAX_EDGE px) and encodes it; the server re-encodes it anyway. */
export function cropToBlob(image: HTMLImageElement, crop: Crop): Promise<Blob> {
  const size = { width: image.naturalWidth, height: image.naturalHeight };
  const { zoom, x, y } = clampCrop(size, crop);
  const side = sideOf(size, zoom);
  const edge = Math.max(1, Math.round(Math.min(IMAGE_MAX_EDGE, side)));
  const canvas = document.createElement('canvas');
  canvas.width = edge;
  canvas.height = edge;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('Your browser could not crop the photo. Please try another browser.'));
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, x - side / 2, y - side / 2, side, side, 0, 0, edge, edge);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('Your browser could not crop the photo. Please try another file.'))),
      'image/webp',
      0.92,
    ),
  );
}

type PhotoCropperProps = {
  image: HTMLImageElement;
  crop: Crop;
  onCropChange: (crop: Crop) => void;
};

/**
 * A square crop with a round preview: drag (or arrow keys) to move the photo, the slider (or +
 * and -) to zoom.
 */
export function PhotoCropper({ image, crop, onCropChange }: PhotoCropperProps) {
  const frameRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<{ pointerId: number; x: number; y: number } | null>(null);
  const zoomId = useId();
  const helpId = useId();
  const size = { width: image.naturalWidth, height: image.naturalHeight };
  const { zoom, x, y } = clampCrop(size, crop);
  const side = sideOf(size, zoom);

  const change = (next: Crop) => onCropChange(clampCrop(size, next));

  /** Moves the photo by screen pixels (dragging right shows more of the left). */
  const moveBy = (dx: number, dy: number) => {
    const frameWidth = frameRef.current?.getBoundingClientRect().width || 1;
    const scale = side / frameWidth;
    change({ zoom, x: x - dx * scale, y: y - dy * scale });
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    dragRef.current = { pointerId: event.pointerId, x: event.clientX, y: event.clientY };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const drag = dragRef.current;
    if (!drag || drag.pointerId !== event.pointerId) return;
    moveBy(event.clientX - drag.x, event.clientY - drag.y);
    dragRef.current = { ...drag, x: event.clientX, y: event.clientY };
  };
  const onPointerUp = () => {
    dragRef.current = null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const frameWidth = frameRef.current?.getBoundingClientRect().width || 280;
    const step = (event.shiftKey ? 0.1 : 0.02) * frameWidth;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [step, 0],
      ArrowRight: [-step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    if (event.key in moves) {
      event.preventDefault();
      moveBy(...moves[event.key]);
    } else if (event.key === '+' || event.key === '=') {
      event.preventDefault();
      change({ zoom: zoom + 0.1, x, y });
    } else if (event.key === '-') {
      event.preventDefault();
      change({ zoom: zoom - 0.1, x, y });
    }
  };

  return (
    <div className="flex flex-col items-center gap-4">
      <div
        ref={frameRef}
        role="group"
        tabIndex={0}
        aria-label="Photo crop"
        aria-describedby={helpId}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        className="relative aspect-square w-full max-w-72 cursor-grab touch-none overflow-hidden rounded-2xl bg-ink select-none active:cursor-grabbing"
      >
        <img
          src={image.src}
          alt="The photo you chose"
          draggable={false}
          className="pointer-events-none absolute max-w-none"
          style={{
            width: `${(size.width / side) * 100}%`,
            height: `${(size.height / side) * 100}%`,
            left: `${(0.5 - x / side) * 100}%`,
            top: `${(0.5 - y / side) * 100}%`,
          }}
        />
        {/* The round frame the photo is shown in across Spotter. */}
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 rounded-full shadow-[0_0_0_9999px_color-mix(in_srgb,var(--color-ink)_55%,transparent)] ring-2 ring-canvas/80"
        />
      </div>
      <p id={helpId} className="text-center text-sm text-muted">
        Drag the photo or use the arrow keys to move it; use the slider or + and − to zoom.
      </p>
      <div className="w-full max-w-72">
        <label htmlFor={zoomId} className="mb-1.5 block text-sm font-semibold text-ink">
          Zoom
        </label>
        <input
          id={zoomId}
          type="range"
          min={MIN_ZOOM}
          max={MAX_ZOOM}
          step={0.01}
          value={zoom}
          aria-valuetext={`${Math.round(zoom * 100)}%`}
          onChange={(event) => change({ zoom: Number(event.target.value), x, y })}
          className="h-11 w-full accent-ink"
        />
      </div>
    </div>
  );
}
