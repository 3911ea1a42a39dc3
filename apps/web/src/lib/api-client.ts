import { ERROR_CODES, type ErrorCode } from '@spotter/shared/error-codes';
import { storage } from './storage';

/**
 * Every failed API call ends up as one of these (docs/product.md#errors: `{ message, statusCode, code, errors? }`).
 * Branch on `code` (docs/decisions/012-error-codes.md), never on the message, which is for people;
 * `code` is undefined when no answer came (network failure) or the answer was not the API's.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: ErrorCode;
  readonly errors?: Record<string, string>;

  constructor(status: number, message: string, errors?: Record<string, string>, code?: ErrorCode) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.code = code;
  }

  get isClientError() {
    return this.status >= 400 && this.status < 500;
  }
}

export const NETWORK_ERROR_MESSAGE = 'Could not reach Spotter. Check your connection and try again.';

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
};

type ErrorBody = { message: string; code?: unknown; errors?: Record<string, string> };

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** The answer's code when it is one the API defines; anything else (an older server, a proxy) is no code. */
export const errorCodeOf = (body: unknown): ErrorCode | undefined => {
  const code = isErrorBody(body) ? body.code : undefined;
  return typeof code === 'string' && KNOWN_CODES.has(code) ? (code as ErrorCode) : undefined;
};

type Fetch = (url: string, init: RequestInit) => Promise<Response>;
let send: Fetch = (url, init) => fetch(url, init);

/**
 * How requests reach the API: the browser's fetch, unless the server's page renderer answers them
 * in-process (app/render-page.tsx).
 */
export const setApiFetch = (fetchApi: Fetch) => {
  send = fetchApi;
};

/**
 * Calls the API under `/api` with JSON in and out, sending the stored token when there is one.
 * Resolves with the parsed body; rejects with an ApiError (status 0 when the network failed).
 */
export async function apiRequest<T>(path: string, { method = 'GET', body, signal }: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = storage.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await send(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }

  const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
  let data: unknown = null;
  if (isJson) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }

  if (!response.ok) {
    const message = isErrorBody(data)
      ? data.message
      : `Something went wrong (${response.status}${response.statusText ? ` ${response.statusText}` : ''}). Please try again.`;
    throw new ApiError(response.status, message, isErrorBody(data) ? data.errors : undefined, errorCodeOf(data));
  }
  return data as T;
}

export const errorMessage = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong. Please try again.';
