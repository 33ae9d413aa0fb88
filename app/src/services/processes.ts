import { createLogger, loadConfigOrExit } from '@shiftcover/platform';
import { listenForOperations } from '../operations';
import { startProcesses } from '../processes';
import { openRuntime } from '../runtime';
import { closeOnSignals } from '../shutdown';

/** The process managers alone (`npm run processes`): e-mail, timers and reports, without the API. */
const config = loadConfigOrExit();
const logger = createLogger(config.LOG_LEVEL).child({ service: 'processes' });
const runtime = await openRuntime(config, logger, { handlesSignals: true });
const processes = await startProcesses(runtime, config, logger);
const http =
  config.HEALTH_PORT === undefined
    ? undefined
    : await listenForOperations(runtime.operations, config.HEALTH_PORT, logger);
logger.info({ jetstream: Boolean(config.NATS_URL), smtp: Boolean(config.SMTP_URL) }, 'processes running');

closeOnSignals(logger, async () => {
  await http?.close();
  await processes.stop();
  await runtime.close();
});
