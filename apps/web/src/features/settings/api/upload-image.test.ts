import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { uploadImage } from './upload-image';

type Answer = { status: number; body: string };

/** A stand-in for XMLHttpRequest that reports two progress steps, then answers. */
function stubXhr(answer: Answer) {
  const sent: { headers: Record<string, string>; body: FormData | null; url: string } = { headers: {}, body: null, url: '' };
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open(_method: string, url: string) {
      sent.url = url;
    }
    setRequestHeader(name: string, value: string) {
      sent.headers[name] = value;
    }
    abort() {
      this.onabort?.();
    }
    send(body: FormData) {
      sent.body = body;
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
        this.upload.onprogress?.({ lengthComputable: true, loaded: 200, total: 200 });
        this.status = answer.status;
        this.responseText = answer.body;
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const image = () => new Blob(['x'], { type: 'image/webp' });

describe('uploadImage', () => {
  afterEach(() => localStorage.clear());

  it('sends the file as multipart field "file" with the token and reports progress', async () => {
    localStorage.setItem('token', 'tok');
    const sent = stubXhr({ status: 201, body: JSON.stringify({ url: '/api/images/abc.webp' }) });
    const progress: number[] = [];

    await expect(uploadImage({ image: image(), fileName: 'photo.webp', onProgress: (p) => progress.push(p) })).resolves.toEqual({
      url: '/api/images/abc.webp',
    });

    expect(sent.url).toBe('/api/images');
    expect(sent.headers.Authorization).toBe('Bearer tok');
    expect((sent.body?.get('file') as File).name).toBe('photo.webp');
    expect(progress).toEqual([0, 25, 100, 100]);
  });

  it.each([
    [413, 'The image is larger than 5 MB'],
    [415, 'Upload a PNG, JPEG or WebP image'],
    [400, 'The image is too large to process; use one under 40 megapixels'],
  ])('rejects a %i with the server message', async (status, message) => {
    stubXhr({ status, body: JSON.stringify({ message, statusCode: status }) });
    const error = await uploadImage({ image: image(), fileName: 'photo.webp' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, message });
  });

  it('explains an answer that is not JSON', async () => {
    stubXhr({ status: 502, body: '<html>' });
    await expect(uploadImage({ image: image(), fileName: 'photo.webp' })).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining('502'),
    });
  });
});
