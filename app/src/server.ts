import { commandApi, createCommandService, registerHttpFoundation, signedIn } from '@shiftcover/command-api';
import { type Config, type Logger, LoginThrottle, SessionStore } from '@shiftcover/platform';
import { ProjectionRunner, projections } from '@shiftcover/projections';
import { LiveFeed, LiveHub, Positions, readApi } from '@shiftcover/read-api';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Runtime } from './runtime';

const IDLE_SESSION_MS = 8 * 60 * 60 * 1000;

export interface ServerOptions {
  clock?: () => Date;
  idleSessionMs?: number;
  /** Run the projector in this process (the all-in-one server); off when it runs on its own. */
  projector?: boolean;
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
  const commandDeps = {
    service: createCommandService(runtime.handler, runtime.vault),
    handler: runtime.handler,
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
    currentUser: async (request: Parameters<typeof signedIn>[0]) =>
      (await signedIn(request, runtime.handler)).principal,
  };

  const trustedOrigins = config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [];
  await registerHttpFoundation(app, commandDeps, { trustedOrigins });
  await app.register(async (api) => commandApi(api, commandDeps));
  await app.register(async (api) => readApi(api, readDeps));

  if (options.projector ?? true) await runner.start();
  await feed.start();
  const purge = setInterval(() => void sessions.purgeExpired().catch(() => undefined), 10 * 60_000);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    feed.stop();
    await runner.stop();
  });
  return app;
}
