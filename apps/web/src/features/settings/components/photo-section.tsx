import { Camera } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { IMAGE_MAX_BYTES, SETTINGS_MSG } from '@spotter/shared';
import { AccountAvatar } from '@/components/account-layout';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import type { OwnAccount } from '@/lib/api/accounts';
import type { Role } from '@/lib/paths';
import { notify } from '@/lib/toast';
import { useEditPhoto } from '../api/edit-photo';
import { uploadImage } from '../api/upload-image';
import { useRefreshAccount } from '../hooks/use-refresh-account';
import { SavedNote } from './form-feedback';
import { centredCrop, cropToBlob, PhotoCropper, type Crop } from './photo-cropper';

const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

type Phase =
  | { kind: 'idle' }
  | { kind: 'cropping'; image: HTMLImageElement; crop: Crop }
  | { kind: 'uploading'; percent: number }
  | { kind: 'saving' }
  | { kind: 'done'; message: string };

/** Checks what the browser can before any byte is sent; the server checks again by content. */
function checkImageFile(file: File): string | null {
  if (!ACCEPTED_TYPES.includes(file.type)) return SETTINGS_MSG.imageType;
  if (file.size > IMAGE_MAX_BYTES) return SETTINGS_MSG.imageTooLarge;
  return null;
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('This file could not be opened as an image. Please choose another one.'));
    image.src = url;
  });
}

function UploadProgress({ phase }: { phase: Phase }) {
  const id = useId();
  if (phase.kind !== 'uploading' && phase.kind !== 'saving' && phase.kind !== 'done') return null;
  const percent = phase.kind === 'uploading' ? phase.percent : 100;
  const label =
    phase.kind === 'uploading' ? 'Uploading your photo' : phase.kind === 'saving' ? 'Saving your photo' : 'Upload complete';
  return (
    <div className="w-full max-w-sm">
      <div className="mb-1.5 flex justify-between text-sm font-semibold text-ink">
        <label htmlFor={id}>{label}</label>
        <span aria-hidden="true">{percent}%</span>
      </div>
      <progress
        id={id}
        max={100}
        value={percent}
        className="block h-2.5 w-full overflow-hidden rounded-full bg-surface-strong [&::-moz-progress-bar]:bg-accent-ink [&::-webkit-progress-bar]:bg-surface-strong [&::-webkit-progress-value]:bg-accent-ink [&::-webkit-progress-value]:transition-[width]"
      >
        {percent}%
      </progress>
    </div>
  );
}

/**
 * Photo: choose a PNG, JPEG or WebP, crop it square in the browser, upload it with a progress
 * bar, then make it the account's photo (docs/product.md#photos).
 */
export function PhotoSection({ role, account }: { role: Role; account: OwnAccount }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const objectUrlRef = useRef<string | null>(null);
  const uploadRef = useRef<AbortController | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [failure, setFailure] = useState<string | null>(null);
  const editPhoto = useEditPhoto();
  const refreshAccount = useRefreshAccount(role);
  const inputId = useId();

  const releaseImage = () => {
    if (objectUrlRef.current) URL.revokeObjectURL(objectUrlRef.current);
    objectUrlRef.current = null;
  };

  // Leaving the page stops an upload and frees the chosen file.
  useEffect(
    () => () => {
      uploadRef.current?.abort();
      if (objectUrlRef.current) URL.revokeObjectURL(objectUrlRef.current);
    },
    [],
  );

  const onFileChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again still fires a change
    if (!file) return;
    setFailure(null);
    const problem = checkImageFile(file);
    if (problem) {
      setFailure(problem);
      return;
    }
    releaseImage();
    const url = URL.createObjectURL(file);
    objectUrlRef.current = url;
    try {
      const image = await loadImage(url);
      setPhase({ kind: 'cropping', image, crop: centredCrop({ width: image.naturalWidth, height: image.naturalHeight }) });
    } catch (error) {
      releaseImage();
      setFailure(errorMessage(error));
    }
  };

  const cancel = () => {
    releaseImage();
    setPhase({ kind: 'idle' });
  };

  const save = async () => {
    if (phase.kind !== 'cropping') return;
    setFailure(null);
    const controller = new AbortController();
    uploadRef.current = controller;
    try {
      const blob = await cropToBlob(phase.image, phase.crop);
      setPhase({ kind: 'uploading', percent: 0 });
      const { url } = await uploadImage({
        image: blob,
        fileName: blob.type === 'image/webp' ? 'photo.webp' : 'photo.png',
        onProgress: (percent) => setPhase({ kind: 'uploading', percent }),
        signal: controller.signal,
      });
      setPhase({ kind: 'saving' });
      const { message } = await editPhoto.mutateAsync({ role, picture: url });
      releaseImage();
      notify.success(message);
      setPhase({ kind: 'done', message });
      void refreshAccount();
    } catch (error) {
      if (controller.signal.aborted) return;
      setFailure(errorMessage(error));
      // Back to the same crop, so another try needs no new file.
      setPhase(phase);
    } finally {
      uploadRef.current = null;
    }
  };

  const isBusy = phase.kind === 'uploading' || phase.kind === 'saving';

  return (
    <div className="space-y-5">
      {phase.kind === 'cropping' ? (
        <>
          <PhotoCropper image={phase.image} crop={phase.crop} onCropChange={(crop) => setPhase({ ...phase, crop })} />
          <div className="flex flex-wrap justify-center gap-3">
            <Button variant="outline" onClick={cancel}>
              Cancel
            </Button>
            <Button onClick={() => void save()}>Save photo</Button>
          </div>
        </>
      ) : (
        <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
          <AccountAvatar account={account} alt="Your current photo" />
          <div className="space-y-3">
            <p className="text-sm text-muted">A PNG, JPEG or WebP image of at most 5 MB. You can crop it before it is saved.</p>
            <input
              ref={inputRef}
              id={inputId}
              type="file"
              accept={ACCEPTED_TYPES.join(',')}
              aria-label="Photo file"
              className="hidden"
              onChange={(event) => void onFileChange(event)}
            />
            <Button variant="secondary" onClick={() => inputRef.current?.click()} isLoading={isBusy}>
              <Camera className="size-4" aria-hidden="true" />
              Change photo
            </Button>
          </div>
        </div>
      )}
      <div aria-live="polite" className="space-y-3">
        <UploadProgress phase={phase} />
        {phase.kind === 'done' && <SavedNote message={phase.message} />}
      </div>
      {failure && <Alert tone="error">{failure}</Alert>}
    </div>
  );
}
