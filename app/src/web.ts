import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The built web app: hashed assets cached for a year, and index.html for every other page path so
 * the client router draws the screen (including its not-found screen). API paths stay 404 JSON.
 */
export async function serveWebApp(app: FastifyInstance, root = WEB_DIST): Promise<boolean> {
  if (!existsSync(`${root}/index.html`)) return false;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders: (res, path) => {
      res.setHeader(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0];
    if (path?.startsWith('/api/')) return reply.code(404).send({ message: `No such route: GET ${path}` });
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return true;
}
