/**
 * The service worker (docs/architecture.md §6.5): the app shell from its cache when there is no
 * network, and the last answers of My Shifts' reads, marked with when they were fetched. Pages
 * and reads go to the network first, so a new deploy and fresh data win whenever they can be
 * had; writes and the live stream are never touched.
 */
import { CACHED_AT_HEADER, DATA_CACHE, isOfflineRead, SESSION_CHANGES } from './contract';

declare const self: ServiceWorkerGlobalScope;

/** Written by the build (web/vite.config.ts): a digest of the shell's contents and its files. */
declare const __SHELL__: { version: string; files: string[] };

const shell = __SHELL__;
const SHELL_PREFIX = 'shiftcover-shell-';
const SHELL_CACHE = `${SHELL_PREFIX}${shell.version}`;
/** index.html, which the server sends for every page path; the client router draws the screen. */
const SHELL_PAGE = '/';
const shellFiles = new Set(shell.files);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll([SHELL_PAGE, ...shell.files]);
      // The shell is whole in its own cache, so the new worker may take over at once.
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== 'GET') {
    // Passed on untouched; a sign-in or sign-out forgets the previous user's answers.
    if (SESSION_CHANGES.includes(url.pathname)) event.waitUntil(caches.delete(DATA_CACHE));
    return;
  }
  if (request.mode === 'navigate' && !url.pathname.startsWith('/api/')) {
    event.respondWith(page(request));
  } else if (isOfflineRead(url.pathname)) {
    event.respondWith(read(request));
  } else if (shellFiles.has(url.pathname)) {
    event.respondWith(shellFile(request));
  }
});

async function page(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match(SHELL_PAGE, { cacheName: SHELL_CACHE });
    if (shell) return shell;
    throw error;
  }
}

/** Hashed files never change under their names; the others change only with a new worker. */
async function shellFile(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: SHELL_CACHE })) ?? fetch(request);
}

async function read(request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    // Whatever this read's headers (a later x-min-position, say), the last answer is all there is.
    const kept = await caches.match(request, { cacheName: DATA_CACHE, ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
  if (response.status === 401) await caches.delete(DATA_CACHE);
  else if (response.ok) {
    // A good answer the cache cannot take (its storage full, say) still goes to the page.
    await keep(request, response.clone()).catch((error: unknown) =>
      console.warn('Not kept for offline reading', error),
    );
  }
  return response;
}

async function keep(request: Request, response: Response): Promise<void> {
  const headers = new Headers(response.headers);
  headers.set(CACHED_AT_HEADER, new Date().toISOString());
  const copy = new Response(await response.arrayBuffer(), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
  await (await caches.open(DATA_CACHE)).put(request, copy);
}
