import { apiRequest } from './api-client';

/**
 * GET requests started with the app's code rather than after it (app/screens.ts asks for the first
 * screen's data while its JavaScript downloads), each taken once by the fetcher that would have
 * made it. One not taken soon is dropped, so a later visit to the screen fetches afresh.
 */
const FRESH_MS = 30_000;
const started = new Map<string, { at: number; answer: Promise<unknown> }>();

/** Starts `GET /api{path}` now, as apiRequest would make it (with the stored token); resolves with the answer. */
export function requestEarly(path: string): Promise<unknown> {
  const answer = apiRequest(path);
  // the taker sees a failure; until then it is not an unhandled rejection
  answer.catch(() => undefined);
  started.set(path, { at: Date.now(), answer });
  return answer;
}

/** The answer of an early request for exactly this path, once; undefined when there is none. */
export function takeEarly<T>(path: string): Promise<T> | undefined {
  const entry = started.get(path);
  if (!entry) return undefined;
  started.delete(path);
  return Date.now() - entry.at < FRESH_MS ? (entry.answer as Promise<T>) : undefined;
}
