import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '@shiftcover/platform';
import { ProjectionRunner, projections } from '@shiftcover/projections';
import type { FromProjector, ProjectorWorkerData, ToProjector } from './projector-thread';
import { openProjectionDeps } from './runtime';

/** The projector's thread (started by `ProjectorThread`): every read model, following the log. */
const port = parentPort!;
const setup = workerData as ProjectorWorkerData;
const tell = (message: FromProjector) => port.postMessage(message);
const logger = createLogger(setup.logLevel).child({ thread: 'projector' });
const deps = openProjectionDeps({
  ...setup,
  // A Buffer crosses to a thread as its bytes.
  chainKey: setup.chainKey ? Buffer.from(setup.chainKey) : undefined,
});
const runner = new ProjectionRunner(deps, projections, {
  log: logger,
  onAdvance: (name, position) => tell({ kind: 'advanced', name, position: position.toString() }),
});

let stopping = false;
port.on('message', (message: ToProjector) => {
  if (message.kind === 'wake') runner.wakeAll();
  else if (message.kind === 'stop' && !stopping) {
    stopping = true;
    void stop();
  }
});

async function stop() {
  await runner.stop();
  await deps.close().catch(() => undefined);
  // Ends this thread only, whatever handles its libraries still hold.
  process.exit(0);
}

try {
  await runner.start();
  tell({ kind: 'started' });
} catch (error) {
  tell({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  await deps.close().catch(() => undefined);
  process.exit(1);
}
