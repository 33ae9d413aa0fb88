import { createLogger, EmbeddedPostgresUnavailable, loadConfigOrExit } from '@shiftcover/platform';
import { type Product, startProduct } from './product';
import { closeOnSignals } from './shutdown';

const config = loadConfigOrExit();
const logger = createLogger(config.LOG_LEVEL);
let product: Product;
try {
  product = await startProduct(config, logger);
} catch (error) {
  // What a person can fix is said in one line, without a stack trace.
  if (error instanceof EmbeddedPostgresUnavailable) {
    console.error(error.message);
    process.exit(1);
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${config.PORT} is already in use: stop what uses it, or set PORT to another port.`);
    process.exit(1);
  }
  throw error;
}

const url = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
logger.info(`Shift Coverage is running at ${url} (API documentation at ${url}/api/docs)`);
if ((await product.runtime.store.headPosition()) === 0n) {
  logger.info(
    'The store is empty. Create the first account with: npm run cli -- users:create --username U --password P --role developer --first-name F --last-name L --email E (or fill it with demo data: npm run cli -- demo:seed)',
  );
}

closeOnSignals(logger, () => product.stop());
