import { createLogger, loadConfig } from '@shiftcover/platform';
import { ProjectionRunner, projections } from '@shiftcover/projections';
import { openRuntime } from './runtime';
import { closeOnSignals } from './shutdown';

/** The projector alone (`npm run projections`), for running it apart from the HTTP servers. */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const runtime = await openRuntime(config, logger);
const runner = new ProjectionRunner(
  { sql: runtime.sql, store: runtime.store, vault: runtime.vault },
  projections,
  {
    log: logger,
  },
);
await runner.start();
logger.info({ projections: projections.map((p) => p.name) }, 'projector running');

closeOnSignals(logger, async () => {
  await runner.stop();
  await runtime.close();
});
