import { createLogger, loadConfig } from '@shiftcover/platform';
import { startProcesses } from './processes';
import { openRuntime } from './runtime';
import { buildServer } from './server';
import { closeOnSignals } from './shutdown';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const runtime = await openRuntime(config, logger);
const server = await buildServer(runtime, config, logger);
await server.listen({ port: config.PORT, host: '0.0.0.0' });
const processes = await startProcesses(runtime, config, logger);

const url = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
logger.info(`Shift Coverage is running at ${url} (API documentation at ${url}/api/docs)`);
if ((await runtime.store.headPosition()) === 0n) {
  logger.info(
    'The store is empty. Create the first account with: npm run cli -- users:create --username U --password P --role developer --first-name F --last-name L --email E (or fill it with demo data: npm run cli -- demo:seed)',
  );
}

closeOnSignals(logger, async () => {
  await processes.stop();
  await server.close();
  await runtime.close();
});
