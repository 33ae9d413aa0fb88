import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Written by the web build (`web/vite.config.ts`): the page paths of the app's route tree. */
const PAGE_PATHS_FILE = 'page-paths.json';

/** Page paths are matched without a trailing slash: '/admin/' is '/admin'. */
const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

function pagePaths(root: string): Set<string> | null {
  const file = `${root}/${PAGE_PATHS_FILE}`;
  if (!existsSync(file)) return null;
  return new Set((JSON.parse(readFileSync(file, 'utf8')) as string[]).map(normalise));
}

/**
 * The built web app: its files (hashed assets cached for a year, everything else checked again
 * each time), and index.html for every page path so the client router draws the screen. Each
 * file goes out as the build's brotli or gzip copy beside it when the request accepts one. A
 * path outside the route tree gets index.html too, so the not-found screen shows, but with
 * status 404; API paths stay 404 JSON. A build without the page-path list serves every path as
 * a page.
 */
export async function serveWebApp(app: FastifyInstance, root = WEB_DIST): Promise<boolean> {
  if (!existsSync(`${root}/index.html`)) return false;
  const pages = pagePaths(root);
  const assets = join(root, 'assets', '/');
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The compressed copies are chosen by Accept-Encoding, never asked for by name.
    globIgnore: ['**/*.br', '**/*.gz'],
    // Set here rather than by `send`, whose own `max-age=0` would replace them.
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader(
        'cache-control',
        path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      res.setHeader('vary', 'accept-encoding');
    },
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/')) return reply.code(404).send({ message: `No such route: GET ${path}` });
    const known = pages === null || pages.has(normalise(path));
    return reply.code(known ? 200 : 404).sendFile('index.html');
  });
  return true;
}
