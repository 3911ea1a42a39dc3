import { useEffect, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';

/**
 * The QR code of `text` as an SVG picture: the `qrcode` package is loaded only when a welcome page
 * shows one, so no other screen carries it.
 */
export function QrCode({ text, alt }: { text: string; alt: string }) {
  const [picture, setPicture] = useState<{ text: string; src: string } | { text: string; failed: true } | null>(null);

  useEffect(() => {
    let isCurrent = true;
    import('qrcode')
      .then((qrcode) => qrcode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then(
        (svg) => {
          if (isCurrent) setPicture({ text, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
        },
        () => {
          if (isCurrent) setPicture({ text, failed: true });
        },
      );
    return () => {
      isCurrent = false;
    };
  }, [text]);

  if (!picture || picture.text !== text) {
    return (
      <div className="flex size-56 items-center justify-center rounded-xl border border-line bg-canvas">
        <Spinner label="Making the QR code…" />
      </div>
    );
  }
  if ('failed' in picture) {
    return <p className="text-sm text-muted">The QR code could not be made here: type the secret below into your app instead.</p>;
  }
  return <img src={picture.src} alt={alt} width={224} height={224} className="size-56 rounded-xl border border-line bg-white" />;
}
