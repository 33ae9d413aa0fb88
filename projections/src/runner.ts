import type { Projection } from './projection';
import { applyNextBatch, install, type ProjectorDeps, readCheckpoint, rebuild } from './projector';
import { SharedReads } from './shared-reads';

export interface RunnerOptions {
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Called after a projection has applied a batch, with its new checkpoint. */
  onAdvance?: (projection: string, position: bigint) => void;
  /** How long an idle loop waits for the store's doorbell before looking anyway. */
  idleMs?: number;
}

/**
 * Keeps every projection following the log, each in its own loop: an event a projection cannot
 * apply is parked and the loop goes on; a failure of the database backs off and retries without
 * holding up the others. A projection whose version changed is rebuilt into
 * fresh tables in the background while the old ones keep serving.
 */
export class ProjectionRunner {
  private running = false;
  private loops: Promise<void>[] = [];
  private wakers = new Set<() => void>();
  /** Set by a wake-up that arrives while a loop is reading, so it reads again instead of idling. */
  private notified = new Set<string>();
  private stopWatching: (() => Promise<void>) | undefined;
  /** The loops mostly ask for the same batches: each is read from the store once for all of them. */
  private readonly following: ProjectorDeps;

  constructor(
    private readonly deps: ProjectorDeps,
    readonly projections: readonly Projection[],
    private readonly options: RunnerOptions = {},
  ) {
    this.following = { ...deps, log: new SharedReads(deps.store, projections.length) };
  }

  async start(): Promise<void> {
    this.running = true;
    this.stopWatching = this.deps.store.watch(() => this.wakeAll());
    for (const projection of this.projections) {
      await install(this.deps.sql, projection);
      const checkpoint = await readCheckpoint(this.deps.sql, projection.name);
      if (checkpoint && checkpoint.version !== projection.version) {
        this.options.log?.info({ projection: projection.name }, 'projection version changed: rebuilding');
        this.loops.push(
          rebuild(this.deps, projection).then(
            (done) =>
              this.options.log?.info(
                { projection: projection.name, events: done.events },
                'projection rebuilt',
              ),
            (error) => this.options.log?.error({ err: error, projection: projection.name }, 'rebuild failed'),
          ),
        );
      }
      this.loops.push(this.follow(projection));
    }
  }

  /** Wakes the loops now: the command side calls it after its own writes. */
  wakeAll(): void {
    for (const projection of this.projections) this.notified.add(projection.name);
    for (const wake of this.wakers) wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeAll();
    await this.stopWatching?.();
    await Promise.allSettled(this.loops);
  }

  private async follow(projection: Projection): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        this.notified.delete(projection.name);
        const applied = await applyNextBatch(this.following, projection, ({ event, error }) =>
          this.options.log?.error(
            {
              projection: projection.name,
              eventId: event.id,
              position: event.position.toString(),
              type: event.type,
              error,
            },
            'event parked: the projection cannot apply it (see projections:status)',
          ),
        );
        failures = 0;
        if (applied > 0) {
          const checkpoint = await readCheckpoint(this.deps.sql, projection.name);
          if (checkpoint) this.options.onAdvance?.(projection.name, checkpoint.position);
          continue;
        }
        if (!this.notified.has(projection.name)) await this.idle(this.options.idleMs ?? 1000);
      } catch (error) {
        failures += 1;
        this.options.log?.error({ err: error, projection: projection.name }, 'projection batch failed');
        await this.idle(Math.min(30_000, 250 * 2 ** failures));
      }
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }
}
