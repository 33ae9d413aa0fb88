import { createLogger, loadConfig } from '@shiftcover/platform';
import { startProcesses } from '../processes';
import { openRuntime } from '../runtime';
import { closeOnSignals } from '../shutdown';

/** The process managers alone (`npm run processes`): e-mail, timers and reports, without HTTP. */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL).child({ service: 'processes' });
const runtime = await openRuntime(config, logger);
const processes = await startProcesses(runtime, config, logger);
logger.info({ jetstream: Boolean(config.NATS_URL), smtp: Boolean(config.SMTP_URL) }, 'processes running');

closeOnSignals(logger, async () => {
  await processes.stop();
  await runtime.close();
});
