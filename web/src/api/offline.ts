import { useSyncExternalStore } from 'react';
import { CACHED_AT_HEADER, DATA_CACHE } from '../service-worker/contract';

/**
 * The page's side of offline reading (docs/architecture.md §6.5): which answers on screen came
 * from the service worker's cache and when the server gave them, and whether the browser has a
 * connection at all.
 */

/** Path of each read answered from the cache → when its answer was fetched. */
const cachedAnswers = new Map<string, Date>();
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads what an answer says about the offline copy: kept, fresh, or not to be kept at all (401). */
export function noteAnswer(path: string, response: Response): void {
  if (response.status === 401) {
    void forgetOfflineData();
    return;
  }
  const header = response.headers.get(CACHED_AT_HEADER);
  const cachedAt = header ? new Date(header) : null;
  if (cachedAt && !Number.isNaN(cachedAt.getTime())) {
    cachedAnswers.set(path, cachedAt);
    changed();
  } else if (cachedAnswers.delete(path)) {
    changed();
  }
}

/** When the answer on screen for `path` was fetched, if it came from the cache; null when it is fresh. */
export function useCachedAt(path: string): Date | null {
  return useSyncExternalStore(subscribe, () => cachedAnswers.get(path) ?? null);
}

function subscribeToConnection(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeToConnection, () => navigator.onLine);
}

/** Drops the signed-in user's kept answers: on sign-out and when the session has ended. */
export async function forgetOfflineData(): Promise<void> {
  cachedAnswers.clear();
  changed();
  if (typeof caches !== 'undefined') await caches.delete(DATA_CACHE);
}

/** Whether any answer on screen came from the cache (and should be read again once online). */
export function hasCachedAnswers(): boolean {
  return cachedAnswers.size > 0;
}

/** What a write (or a read) the user tried needs the connection for, in their words. */
const ACTIONS: [method: string, path: RegExp, action: string][] = [
  ['POST', /^\/api\/shifts\/[^/]+\/claim$/, 'Claiming a shift'],
  ['POST', /^\/api\/shifts\/[^/]+\/request-drop$/, 'Requesting a drop'],
  ['POST', /^\/api\/shifts\/[^/]+\/transfer-request$/, 'Requesting a transfer'],
  ['PATCH', /^\/api\/transfer-requests\/[^/]+$/, 'Answering a transfer request'],
  ['DELETE', /^\/api\/transfer-requests\/[^/]+$/, 'Cancelling a transfer request'],
  ['POST', /^\/api\/auth\/login$/, 'Signing in'],
];

/** docs/product.md §8.3: 'You are offline. Claiming a shift needs a connection.' and the like. */
export function offlineMessage(method: string, path: string): string {
  const pathname = path.split('?')[0] ?? path;
  const known = ACTIONS.find(([m, pattern]) => m === method && pattern.test(pathname));
  const action = known?.[2] ?? (method === 'GET' ? 'Loading this' : 'Saving a change');
  return `You are offline. ${action} needs a connection.`;
}
