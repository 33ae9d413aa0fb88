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
    navigator.serviceWorker.addEventListener('controllerchange', () => void queryClient.invalidateQueries(), {
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

/** Runs `task` once the page is idle, or after a few seconds in a browser that never says so. */
function whenIdle(task: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: IDLE_WAIT_MS });
  else setTimeout(task, IDLE_WAIT_MS);
}

const IDLE_WAIT_MS = 5_000;
