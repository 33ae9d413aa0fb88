import type { ServerResponse } from 'node:http';
import type { Logger } from '@shiftcover/platform';
import type { FastifyInstance } from 'fastify';

/** A stop that takes longer than this is cut short: orchestrators kill the container soon after. */
export const SHUTDOWN_DEADLINE_MS = 10_000;
/** How long requests still in flight at close get before their connections are cut. */
const DRAIN_MS = 5_000;

/** Stops cleanly on Ctrl-C or SIGTERM, once, then exits; exits with code 1 past the deadline. */
export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    try {
      await close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * Lets `app.close()` finish while live-update streams are open: they never end on their own, so
 * they are ended as the server closes (browsers reconnect, to another copy behind the gateway).
 * Other requests in flight get a short drain before their connections are cut.
 */
export function endStreamsOnClose(app: FastifyInstance): void {
  const streams = new Set<ServerResponse>();
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.accept?.includes('text/event-stream') || request.url.split('?')[0] === '/api/live') {
      streams.add(reply.raw);
      reply.raw.on('close', () => streams.delete(reply.raw));
    }
  });
  let drain: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
    drain = setTimeout(() => app.server.closeAllConnections(), DRAIN_MS);
    drain.unref();
  });
  app.addHook('onClose', async () => clearTimeout(drain));
}
