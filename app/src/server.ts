import { commandApi, createCommandService, registerHttpFoundation } from '@shiftcover/command-api';
import { type Config, type Logger, LoginThrottle, SessionStore } from '@shiftcover/platform';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Runtime } from './runtime';

const IDLE_SESSION_MS = 8 * 60 * 60 * 1000;

export interface ServerOptions {
  clock?: () => Date;
  idleSessionMs?: number;
}

/** The all-in-one HTTP server: every route of the product in one process. */
export async function buildServer(
  runtime: Runtime,
  config: Config,
  logger: Logger,
  options: ServerOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: true,
    requestIdHeader: 'x-request-id',
    bodyLimit: 256 * 1024,
  });
  const sessions = new SessionStore(runtime.sql, options.idleSessionMs ?? IDLE_SESSION_MS);
  const deps = {
    service: createCommandService(runtime.handler, runtime.vault),
    handler: runtime.handler,
    sessions,
    throttle: new LoginThrottle(runtime.sql),
    clock: options.clock,
  };
  const trustedOrigins = config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [];
  await registerHttpFoundation(app, deps, { trustedOrigins });
  await app.register(async (api) => commandApi(api, deps));
  const purge = setInterval(() => void sessions.purgeExpired().catch(() => undefined), 10 * 60_000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
  return app;
}
