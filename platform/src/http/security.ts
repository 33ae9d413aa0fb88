import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SecurityOptions {
  /** Origins allowed to send state-changing requests besides the server's own (PUBLIC_URL). */
  trustedOrigins?: string[];
}

/**
 * Security headers on every response, and state-changing requests refused when a browser says
 * they come from another site (Origin, or Sec-Fetch-Site when Origin is absent).
 */
export const security = fp(
  async (app: FastifyInstance, { trustedOrigins = [] }: SecurityOptions) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
    });
    app.addHook('onRequest', async (request, reply) => {
      if (SAFE_METHODS.has(request.method)) return;
      const origin = request.headers.origin;
      if (origin) {
        const own = `${request.protocol}://${request.host}`;
        if (origin !== own && !trustedOrigins.includes(origin)) {
          return reply.status(403).send({ message: 'Cross-origin request refused' });
        }
      } else if (request.headers['sec-fetch-site'] === 'cross-site') {
        return reply.status(403).send({ message: 'Cross-origin request refused' });
      }
    });
  },
  { name: 'security' },
);
