/**
 * The service worker's runtime caches (apps/web/src/sw/sw.ts, docs/decisions/048-service-worker.md).
 * Public answers and pictures are the same for everyone; the signed-in person's answers are kept
 * under a key with their token's hash and deleted at logout.
 */
export const PUBLIC_CACHE = 'spotter-public';
export const PERSONAL_CACHE = 'spotter-personal';
