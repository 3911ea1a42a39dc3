import { ApiError, errorCodeOf, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import { storage } from '@/lib/storage';

type UploadImageOptions = {
  image: Blob;
  fileName: string;
  /** Called with 0–100 while the bytes go up. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
};

function messageOf(xhr: XMLHttpRequest): {
  message?: string;
  errors?: Record<string, string>;
  code?: ReturnType<typeof errorCodeOf>;
} {
  try {
    const body: unknown = JSON.parse(xhr.responseText);
    if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
      return { ...(body as { message: string; errors?: Record<string, string> }), code: errorCodeOf(body) };
    }
  } catch {
    // not JSON: fall through to the generic message
  }
  return {};
}

/**
 * POST /api/images (multipart field `file`) → 201 `{ url }`. XMLHttpRequest rather than fetch,
 * because only it reports upload progress. Errors reject with an ApiError like apiRequest's:
 * 413 too large, 415 not an image, 400 too many pixels, each with the server's message.
 */
export function uploadImage({ image, fileName, onProgress, signal }: UploadImageOptions): Promise<{ url: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/images');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = storage.getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const { message, errors, code } = messageOf(xhr);
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const body = JSON.parse(xhr.responseText) as { url?: unknown };
          if (typeof body.url === 'string') {
            onProgress?.(100);
            resolve({ url: body.url });
            return;
          }
        } catch {
          // handled below
        }
        reject(new ApiError(xhr.status, 'The upload finished but the server did not answer an address. Please try again.'));
        return;
      }
      reject(new ApiError(xhr.status, message ?? `Something went wrong (${xhr.status}). Please try again.`, errors, code));
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));

    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('The upload was cancelled', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }

    const form = new FormData();
    form.append('file', image, fileName);
    onProgress?.(0);
    xhr.send(form);
  });
}
