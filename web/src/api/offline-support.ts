import type { QueryClient } from '@tanstack/react-query';
import { hasCachedAnswers } from './offline';
import { queryClient } from './query-client';

/**
 * Installs the service worker (docs/architecture.md §6.5) in a production build (the dev server has
 * none), and reads again whatever the screen shows from the cache once the connection comes back.
 */
export function startOfflineSupport(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // The first worker takes over a page whose reads it never saw: reading them again keeps them.
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener('controllerchange', () => readAgainWhenSettled(queryClient), {
      once: true,
    });
  }
  // Installing fetches every file of the app shell: it waits until the first screen is drawn and
  // the page is idle, so it never competes with what the visitor is waiting for.
  window.addEventListener('load', () => {
    whenIdle(() => {
      navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
        console.warn('Offline reading is unavailable', error);
      });
    });
  });
  window.addEventListener('online', () => {
    if (hasCachedAnswers()) void queryClient.invalidateQueries();
  });
}

/**
 * Reads everything on screen again once no read is under way. A read sent before the worker took
 * over went past it, and a query's first read still under way is not sent again by a refresh (it
 * answers with the read already under way), so the refresh waits for those to finish. Reads begun
 * meanwhile go through the worker.
 */
export function readAgainWhenSettled(client: QueryClient): void {
  let done = false;
  let stop = () => {};
  const refreshWhenIdle = () => {
    if (done || client.isFetching() > 0) return;
    done = true;
    stop();
    void client.invalidateQueries();
  };
  refreshWhenIdle();
  if (done) return;
  // Told during the cache's own update: the count is read once that update is over.
  stop = client.getQueryCache().subscribe(() => queueMicrotask(refreshWhenIdle));
}

/** Runs `task` once the page is idle, or after a few seconds in a browser that never says so. */
function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: IDLE_WAIT_MS });
  else setTimeout(task, IDLE_WAIT_MS);
}

const IDLE_WAIT_MS = 5_000;
