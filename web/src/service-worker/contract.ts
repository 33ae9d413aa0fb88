/**
 * What the service worker (sw.ts) and the page agree on: where the last answers of the offline
 * reads are kept, and the header that marks an answer as coming from there rather than the server.
 */

/** Holds the signed-in user's own data: emptied on sign-in, sign-out and any 401. */
export const DATA_CACHE = 'shiftcover-data';

/** On an answer from the cache: when the server gave it (ISO 8601). */
export const CACHED_AT_HEADER = 'x-cached-at';

/**
 * The reads My Shifts and the header above it make (docs/product.md §2.11), kept for offline
 * reading: the user, their shifts, transfer requests, time off, credentials and notifications.
 */
const OFFLINE_READS = [
  /^\/api\/auth\/user$/,
  /^\/api\/my-shifts$/,
  /^\/api\/transfer-requests$/,
  /^\/api\/my-time-off$/,
  /^\/api\/users\/[^/]+\/credentials$/,
  /^\/api\/notifications$/,
];

export function isOfflineRead(pathname: string): boolean {
  return OFFLINE_READS.some((read) => read.test(pathname));
}

/** Writes after which the kept answers may belong to someone else. */
export const SESSION_CHANGES = ['/api/auth/login', '/api/auth/logout'];
