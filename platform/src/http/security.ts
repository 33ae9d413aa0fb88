import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SecurityOptions {
  /** Origins allowed to send state-changing requests besides the server's own (PUBLIC_URL). */
  trustedOrigins?: string[];
}

/**
 * Security headers on every response, and state-changing requests refused when a browser says
 * they come from another site (Origin, or Sec-Fetch-Site when Origin is absent).
 */
/**
 * Helmet's headers, with our content security policy, worked out once: they are the same on every
 * response, and working them out per request (as helmet's Fastify plugin does) costs a busy server
 * a noticeable share of its time.
 */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
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
  })({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export const security = fp(
  async (app: FastifyInstance, { trustedOrigins = [] }: SecurityOptions) => {
    const headers = securityHeaders();
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(headers);
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
