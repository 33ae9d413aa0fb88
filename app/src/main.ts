import { createLogger, loadConfig } from '@shiftcover/platform';
import { openRuntime } from './runtime';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const runtime = await openRuntime(config, logger);

const head = await runtime.store.headPosition();
logger.info({ position: head.toString() }, 'event store ready');
if (head === 0n) {
  logger.info(
    'The store is empty. Create the first account with: npm run cli -- users:create --username U --password P --role developer --first-name F --last-name L --email E',
  );
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  await runtime.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
