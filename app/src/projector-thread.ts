import { Worker } from 'node:worker_threads';
import type { Logger } from '@shiftcover/platform';
import type { ProjectionSetup } from './runtime';

/** What the server tells the projector's thread. */
export type ToProjector = { kind: 'wake' } | { kind: 'stop' };

/** What the projector's thread tells the server. */
export type FromProjector =
  | { kind: 'started' }
  | { kind: 'failed'; message: string }
  | { kind: 'advanced'; name: string; position: string };

/** What the thread is started with: where its connections go, and how much it logs. */
export interface ProjectorWorkerData extends ProjectionSetup {
  logLevel: string;
}

/** How long a stopping thread may take to finish its batch before it is ended. */
const STOP_TIMEOUT_MS = 10_000;
/** The longest pause before a thread that ended unasked is started again. */
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * The all-in-one server's projector (`ProjectionRunner`) on a worker thread of its own, with its
 * own event loop, connections and store (docs/architecture.md §5.3). In the server's event loop, a
 * projector's round waits its turn between requests at every trip to the database: under a heavy
 * command load a round of a few dozen events took a tenth of a second, and a person who had just
 * claimed a shift waited that long to see it. On its own thread each trip is answered when the
 * database answers, and the two cores share the work.
 *
 * The thread reports each read model's new checkpoint (`onAdvance`); a reader waiting for their
 * own write wakes it at once (`wakeAll`). A thread that ends without being asked to (an error no
 * batch caught) is logged and started again, after a pause that grows while it keeps failing; its
 * checkpoints are in the database, so it goes on where it stopped.
 */
export class ProjectorThread {
  private worker: Worker | undefined;
  private stopping = false;
  private failures = 0;
  private restart: NodeJS.Timeout | undefined;

  constructor(
    private readonly setup: ProjectorWorkerData,
    private readonly options: {
      onAdvance: (readModel: string, position: bigint) => void;
      log: Pick<Logger, 'error' | 'info'>;
    },
  ) {}

  /** Resolves once every read model is installed and the thread follows the log, as `ProjectionRunner.start`. */
  start(): Promise<void> {
    this.stopping = false;
    return this.spawn();
  }

  /** Wakes the thread's loop now, without waiting for the store's doorbell. */
  wakeAll(): void {
    this.worker?.postMessage({ kind: 'wake' } satisfies ToProjector);
  }

  /** Lets the thread finish its batch and close its connections; ends it if that takes too long. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restart);
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'stop' } satisfies ToProjector);
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private spawn(): Promise<void> {
    const worker = startWorker(this.setup);
    this.worker = worker;
    return new Promise<void>((resolve, reject) => {
      let started = false;
      /** Why it could not start: told once the thread has ended, so that nothing of it is left. */
      let failure: Error | undefined;
      worker.on('message', (message: FromProjector) => {
        if (message.kind === 'advanced') this.options.onAdvance(message.name, BigInt(message.position));
        else if (message.kind === 'started') {
          started = true;
          this.failures = 0;
          resolve();
        } else if (message.kind === 'failed') failure = new Error(message.message);
      });
      worker.on('error', (error) => {
        if (started) this.options.log.error({ err: error }, 'the projector thread failed');
        else failure ??= error;
      });
      worker.once('exit', (code) => {
        if (this.worker === worker) this.worker = undefined;
        if (!started) {
          reject(failure ?? new Error(`the projector thread ended with ${code} before it started`));
          return;
        }
        if (this.stopping) return;
        this.options.log.error({ code }, 'the projector thread ended: starting it again');
        this.startAgain();
      });
    });
  }

  /** Starts the thread again after a pause that grows with each failure, until it starts or is stopped. */
  private startAgain(): void {
    this.failures += 1;
    const delay = Math.min(MAX_RESTART_DELAY_MS, 250 * 2 ** this.failures);
    this.restart = setTimeout(() => {
      if (this.stopping) return;
      this.spawn().catch((error) => {
        this.options.log.error({ err: error, delay }, 'the projector thread could not start again');
        if (!this.stopping) this.startAgain();
      });
    }, delay);
  }
}

/**
 * The thread, from the built file beside this one (`app/dist/projector-worker.js`, a build entry of
 * its own), or, run from the TypeScript sources, from its source through tsx, registered in the
 * thread itself: a loader registered with `--import` does not reach a worker's entry on Node 20.
 */
function startWorker(workerData: ProjectorWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./projector-worker.js', import.meta.url), { workerData });
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./projector-worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true, workerData },
  );
}
