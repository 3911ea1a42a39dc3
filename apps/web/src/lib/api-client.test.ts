import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/testing/render';
import { ApiError, apiRequest } from './api-client';

describe('apiRequest', () => {
  afterEach(() => localStorage.clear());

  it('sends JSON and the stored token, and returns the body', async () => {
    localStorage.setItem('token', 'abc');
    const fetchMock = vi.fn(async () => jsonResponse({ ok: true }));
    vi.stubGlobal('fetch', fetchMock);

    await expect(apiRequest('/things', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: true });

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/things');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer abc', 'Content-Type': 'application/json' });
  });

  it('turns an error answer into an ApiError with status, message and field errors', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { message: 'Some fields are not valid', statusCode: 400, code: 'VALIDATION_FAILED', errors: { email: 'Invalid' } },
          400,
        ),
      ),
    );
    const error = await apiRequest('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Some fields are not valid',
      errors: { email: 'Invalid' },
    });
  });

  it('exposes only codes the API defines', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Verify first', statusCode: 403, code: 'EMAIL_NOT_VERIFIED' }, 403)),
    );
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 403, code: 'EMAIL_NOT_VERIFIED' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Nope', statusCode: 403, code: 'SOMETHING_ELSE' }, 403)),
    );
    const unknown = await apiRequest('/x').catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 403, message: 'Nope' });
    expect((unknown as ApiError).code).toBeUndefined();
  });

  it('reports a network failure as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await apiRequest('/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0 });
    expect((error as ApiError).code).toBeUndefined();
  });

  it('explains a non-JSON failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(apiRequest('/x')).rejects.toMatchObject({ status: 502, message: expect.stringContaining('502') });
  });
});
