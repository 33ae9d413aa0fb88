import {
  caller,
  commandApi,
  createCommandService,
  Principals,
  registerHttpFoundation,
} from '@shiftcover/command-api';
import { type Config, type Logger, LoginThrottle, SessionStore } from '@shiftcover/platform';
import { emailHandler, processRoutes } from '@shiftcover/processes';
import { ProjectionRunner, projections } from '@shiftcover/projections';
import { LiveFeed, LiveHub, Positions, readApi } from '@shiftcover/read-api';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { shiftHistory } from './audit/replay';
import { mailSetup } from './processes';
import type { Runtime } from './runtime';
import { serveWebApp } from './web';

const IDLE_SESSION_MS = 8 * 60 * 60 * 1000;

export interface ServerOptions {
  clock?: () => Date;
  idleSessionMs?: number;
  /** Run the projector in this process (the all-in-one server); off when it runs on its own. */
  projector?: boolean;
  /** Serve the built web app (web/dist) when it has been built. */
  web?: boolean;
  /** The write side: sign-in and every command route (off for a read-api-only service). */
  commands?: boolean;
  /** The read side: every read route and the live feed (off for a command-api-only service). */
  reads?: boolean;
}

/** The all-in-one HTTP server: every route of the product, and by default the projector too. */
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
  const principals = new Principals(runtime.handler);
  const commandDeps = {
    service: createCommandService(runtime.handler, runtime.vault),
    handler: runtime.handler,
    principals,
    sessions,
    throttle: new LoginThrottle(runtime.sql),
    clock: options.clock,
  };
  const positions = new Positions(runtime.sql);
  const live = new LiveHub();
  const feed = new LiveFeed(runtime.store, () => positions.everywhere(), live);
  const runner = new ProjectionRunner(
    { sql: runtime.sql, store: runtime.store, vault: runtime.vault },
    projections,
    {
      log: logger,
      onAdvance: () => {
        positions.advanced();
        void feed.wake().catch((error) => logger.error({ err: error }, 'live feed failed'));
      },
    },
  );
  const readDeps = {
    sql: runtime.sql,
    positions,
    live,
    clock: options.clock,
    currentUser: async (request: FastifyRequest) => (await caller(request, principals)).principal,
    shiftHistory: (shiftId: string) => shiftHistory(runtime.handler, shiftId),
  };

  const trustedOrigins = config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [];
  await registerHttpFoundation(app, commandDeps, { trustedOrigins });
  if (options.commands ?? true) await app.register(async (api) => commandApi(api, commandDeps));
  if (options.reads ?? true) await app.register(async (api) => readApi(api, readDeps));
  const mail = mailSetup(runtime, config, positions);
  await app.register(async (api) =>
    processRoutes(api, {
      ...commandDeps,
      sql: runtime.sql,
      store: runtime.store,
      smtp: mail.smtp,
      handlers: [emailHandler(mail)],
      readModelsAt: mail.readModelsAt,
    }),
  );
  // Liveness and readiness for load balancers and compose health checks: the database answers.
  app.get('/healthz', { schema: { hide: true } }, async () => {
    await runtime.sql`select 1`;
    return { status: 'ok' };
  });
  if (options.web ?? true) await serveWebApp(app);

  if (options.projector ?? true) await runner.start();
  if (options.reads ?? true) await feed.start();
  const purge = setInterval(() => void sessions.purgeExpired().catch(() => undefined), 10 * 60_000);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    feed.stop();
    await runner.stop();
  });
  return app;
}
