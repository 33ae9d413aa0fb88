import { createLogger, loadConfigOrExit } from '@shiftcover/platform';
import { ProjectionRunner, projections } from '@shiftcover/projections';
import { listenForOperations, projectionGauges } from '../operations';
import { openRuntime } from '../runtime';
import { closeOnSignals } from '../shutdown';

/** The projector alone (`npm run projections`), for running it apart from the HTTP servers. */
const config = loadConfigOrExit();
const logger = createLogger(config.LOG_LEVEL).child({ service: 'projections' });
const runtime = await openRuntime(config, logger, { handlesSignals: true });
const runner = new ProjectionRunner(
  { sql: runtime.sql, store: runtime.store, vault: runtime.vault },
  projections,
  { log: logger },
);
await runner.start();
// Ready once its stores answer: catching up is its work, so its lag is a metric, not a readiness check.
projectionGauges(runtime.operations.metrics, runtime.sql);
const http =
  config.HEALTH_PORT === undefined
    ? undefined
    : await listenForOperations(runtime.operations, config.HEALTH_PORT, logger);
logger.info({ projections: projections.map((p) => p.name) }, 'projector running');

closeOnSignals(logger, async () => {
  await http?.close();
  await runner.stop();
  await runtime.close();
});
