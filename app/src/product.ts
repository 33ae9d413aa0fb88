import path from 'node:path';
import { type Config, type Logger, launchNatsServer, natsServerBinary } from '@shiftcover/platform';
import type { FastifyInstance } from 'fastify';
import { startProcesses } from './processes';
import { openRuntime, type Runtime } from './runtime';
import { buildServer } from './server';

export interface Product {
  runtime: Runtime;
  server: FastifyInstance;
  /** The NATS the process managers use, when they use one. */
  natsUrl?: string;
  stop(): Promise<void>;
}

/**
 * The whole product in one process (`npm start`): the HTTP server with the projector on a thread of
 * its own, and the process managers on NATS JetStream: `NATS_URL`, else a `nats-server` of its own
 * with its storage under `DATA_DIR/nats`, else, where there is no `nats-server`, subscriptions on
 * the event store.
 */
export async function startProduct(config: Config, logger: Logger): Promise<Product> {
  const runtime = await openRuntime(config, logger, { handlesSignals: true });
  const stops: Array<() => Promise<unknown>> = [() => runtime.close()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const natsUrl = config.NATS_URL ?? (await embeddedNats(config, logger, stops));
    const server = await buildServer(runtime, config, logger, { projectorThread: true });
    stops.push(() => server.close());
    await server.listen({ port: config.PORT, host: '0.0.0.0' });
    const processes = await startProcesses(runtime, { ...config, NATS_URL: natsUrl }, logger);
    stops.push(() => processes.stop());
    return { runtime, server, natsUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function embeddedNats(config: Config, logger: Logger, stops: Array<() => Promise<unknown>>) {
  const binary = natsServerBinary();
  if (!binary) {
    logger.warn(
      'No nats-server found (install it, or set NATS_SERVER_BIN or NATS_URL): the process managers follow the event store directly instead of JetStream',
    );
    return undefined;
  }
  const storeDir = path.resolve(config.DATA_DIR, 'nats');
  const nats = await launchNatsServer({ storeDir, binary });
  stops.push(() => nats.stop());
  logger.info({ storeDir, port: nats.port }, 'embedded nats-server started');
  return nats.url;
}
