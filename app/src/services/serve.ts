import { createLogger, loadConfigOrExit } from '@shiftcover/platform';
import { openRuntime } from '../runtime';
import { buildServer, type ServerOptions } from '../server';
import { closeOnSignals } from '../shutdown';

/**
 * One HTTP service of the production-like deployment, on its own: the same server as `npm start`
 * with only some of its parts, against the stores named by the environment.
 */
export async function serve(name: string, options: ServerOptions): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.LOG_LEVEL).child({ service: name });
  const runtime = await openRuntime(config, logger, { handlesSignals: true });
  const server = await buildServer(runtime, config, logger, options);
  // Handlers first: a stop that comes as soon as the port answers still closes cleanly.
  closeOnSignals(logger, async () => {
    await server.close();
    await runtime.close();
  });
  await server.listen({ port: config.PORT, host: '0.0.0.0' });
  logger.info(`${name} listening on port ${config.PORT}`);
}
