import {
  type ApiDocument,
  commandApi,
  createCommandService,
  Principals,
  registerHttpFoundation,
} from '@shiftcover/command-api';
import { type Config, caller, type Logger, LoginThrottle, SessionStore } from '@shiftcover/platform';
import { emailHandler, processRoutes } from '@shiftcover/processes';
import { auditDetails, ProjectionRunner, projections } from '@shiftcover/projections';
import {
  LiveFeed,
  LiveHub,
  type LiveLimits,
  Positions,
  readApi,
  shiftsOfferedTo,
} from '@shiftcover/read-api';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { shiftHistory } from './audit/replay';
import { projectionGauges, projectionLagCheck } from './operations';
import { mailSetup } from './processes';
import { ProjectorThread } from './projector-thread';
import type { Runtime } from './runtime';
import { endStreamsOnClose } from './shutdown';
import { serveWebApp } from './web';

const IDLE_SESSION_MS = 8 * 60 * 60 * 1000;

export interface ServerOptions {
  clock?: () => Date;
  idleSessionMs?: number;
  /** Run the projector in this process (the all-in-one server); off when it runs on its own. */
  projector?: boolean;
  /**
   * The projector on a worker thread of its own (`ProjectorThread`) rather than in the requests'
   * event loop: what `npm start` runs. Off, it shares the event loop (tests that do not measure).
   */
  projectorThread?: boolean;
  /** Serve the built web app (web/dist) when it has been built. */
  web?: boolean;
  /** The write side: sign-in and every command route (off for a read-api-only service). */
  commands?: boolean;
  /** The read side: every read route and the live feed (off for a command-api-only service). */
  reads?: boolean;
  /** Caps on live-update streams, per user and in all. */
  liveLimits?: Partial<LiveLimits>;
  /** How often open live streams are checked for expired sessions. */
  liveSessionSweepMs?: number;
}

/** The all-in-one HTTP server: every route of the product, and by default the projector too. */
export async function buildServer(
  runtime: Runtime,
  config: Config,
  logger: Logger,
  options: ServerOptions = {},
): Promise<FastifyInstance> {
  const reads = options.reads ?? true;
  const projector = options.projector ?? true;
  // A service with only one side of the API still documents both at /api/docs.
  const document =
    reads && (options.commands ?? true) ? undefined : await apiDocument(runtime, config, logger);
  const { app, runner, feed, sessions, live, positions } = await assemble(
    runtime,
    config,
    logger,
    options,
    document,
  );
  await runtime.operations.routes(app);
  if (reads) runtime.operations.checks.push(projectionLagCheck(runtime.sql, config.READY_MAX_LAG));
  if (reads || projector) projectionGauges(runtime.operations.metrics, runtime.sql);
  endStreamsOnClose(app);
  if (options.web ?? true) await serveWebApp(app);
  if (config.BENCH_CONSTANT_ROUTE) registerConstantRoute(app);

  if (projector) await runner.start();
  if (reads) {
    await feed.start();
    await live.watchSessions(sessions, options.liveSessionSweepMs);
  }
  const purge = setInterval(() => void sessions.purgeExpired().catch(() => undefined), 10 * 60_000);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    feed.stop();
    await live.stop();
    await runner.stop();
    await positions.close();
  });
  return app;
}

/**
 * The cheapest answer this server can give, through the same hooks as every route: the bench
 * measures the reads against it, so that the machine's own cost of an HTTP answer is set apart.
 */
function registerConstantRoute(app: FastifyInstance) {
  const answer = { ok: true };
  app.get('/bench/constant', { schema: { hide: true } }, async () => answer);
}

/** The OpenAPI document of every route, from a server that is assembled but never started. */
async function apiDocument(runtime: Runtime, config: Config, logger: Logger): Promise<ApiDocument> {
  const { app } = await assemble(runtime, { ...config, SMTP_URL: undefined }, logger, {});
  await app.ready();
  const document = app.swagger() as ApiDocument;
  await app.close();
  return document;
}

/** The routes of the parts `options` asks for, and the parts still to be started. */
async function assemble(
  runtime: Runtime,
  config: Config,
  logger: Logger,
  options: ServerOptions,
  document?: ApiDocument,
) {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    bodyLimit: 256 * 1024,
  });
  const sessions = new SessionStore(runtime.sql, options.idleSessionMs ?? IDLE_SESSION_MS);
  const principals = new Principals(runtime.handler);
  const commandDeps = {
    service: createCommandService(runtime.handler, runtime.vault, {
      offeredTo: (userId) => shiftsOfferedTo(runtime.sql, userId),
    }),
    handler: runtime.handler,
    store: runtime.store,
    principals,
    sessions,
    throttle: new LoginThrottle(runtime.sql),
    clock: options.clock,
    publicUrl: config.PUBLIC_URL,
  };
  // A reader waiting for its own write wakes this process's projector (declared below) at once.
  const positions = new Positions(runtime.sql, () => runner.wakeAll());
  const live = new LiveHub(options.liveLimits);
  const feed = new LiveFeed(runtime.store, () => positions.everywhere(), live);
  const onAdvance = (name: string, position: bigint) => {
    positions.advanced(name, position);
    void feed.wake().catch((error) => logger.error({ err: error }, 'live feed failed'));
  };
  const runner = options.projectorThread
    ? new ProjectorThread(
        {
          databaseUrl: runtime.databaseUrl,
          eventstoreUrl: config.EVENTSTORE_URL,
          chainKey: runtime.chainKey,
          logLevel: config.LOG_LEVEL,
        },
        { onAdvance, log: logger },
      )
    : new ProjectionRunner(runtime.projection, projections, { log: logger, onAdvance });
  const readDeps = {
    sql: runtime.sql,
    positions,
    live,
    clock: options.clock,
    currentUser: async (request: FastifyRequest) => (await caller(request, principals)).principal,
    auditDetails: async (ids: readonly string[]) => {
      const events = await runtime.store.readAt(ids.map(BigInt));
      return new Map(events.map((event) => [event.position.toString(), auditDetails(event)]));
    },
    shiftHistory: (shiftId: string) => shiftHistory(runtime.handler, shiftId),
    safety: commandDeps.service.safety,
    escalation: commandDeps.service.escalation,
  };

  const trustedOrigins = config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [];
  await registerHttpFoundation(app, commandDeps, { trustedOrigins, document });
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
  return { app, runner, feed, sessions, live, positions };
}
