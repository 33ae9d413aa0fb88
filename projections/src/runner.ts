import { KeptRows } from './kept-rows';
import type { Failure } from './parking';
import type { Projection } from './projection';
import {
  applyNextBatch,
  applyNextBatchTogether,
  DEFAULT_BATCH,
  install,
  type ProjectorDeps,
  readCheckpoint,
  readCheckpointsOf,
  rebuild,
} from './projector';

export interface RunnerOptions {
  log?: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Called after a projection has applied a batch, with its new checkpoint. */
  onAdvance?: (projection: string, position: bigint) => void;
  /** How long an idle loop waits for the store's doorbell before looking anyway. */
  idleMs?: number;
}

/** How soon a projection passed over because another transaction held its checkpoint is tried again. */
const BUSY_RETRY_MS = 50;

/**
 * Keeps every projection following the log in one loop. The projections at the furthest
 * checkpoint (after a start, and from then on, all of them) take each batch together: one read of
 * the log, and at the head of the log two commits for all, those writers wait to read back first
 * (applyNextBatchTogether). One behind them (newly installed, or held back by a failure) catches
 * up on its own batches and then joins them. An event a projection cannot apply is parked and the
 * others go on; a failure of the database backs off and retries, and a batch that fails together
 * is next tried projection by projection, so that one projection's trouble holds up only itself. A projection whose version changed is rebuilt into
 * fresh tables in the background while the old ones keep serving.
 */
export class ProjectionRunner {
  private running = false;
  private loops: Promise<void>[] = [];
  private wakers = new Set<() => void>();
  /** Set by a wake-up that arrives while the loop is reading, so it reads again instead of idling. */
  private notified = false;
  private stopWatching: (() => Promise<void>) | undefined;
  /** Projections that failed on their own, and when each is tried again. */
  private readonly backoff = new Map<string, { failures: number; until: number }>();
  /** Set when a batch failed together: the next round goes projection by projection. */
  private oneByOne = false;
  /** The rows of its rounds at the head of the log, kept for the next rounds (see KeptRows). */
  private readonly keptRows = new KeptRows();

  constructor(
    private readonly deps: ProjectorDeps,
    readonly projections: readonly Projection[],
    private readonly options: RunnerOptions = {},
  ) {}

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
    }
    if (this.projections.length > 0) this.loops.push(this.follow());
  }

  /**
   * Wakes the loop now, without waiting for the store's doorbell: a reader waiting for its own
   * write calls it, so that the doorbell's gathering never delays what someone is waiting to see.
   */
  wakeAll(): void {
    this.notified = true;
    for (const wake of this.wakers) wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeAll();
    await this.stopWatching?.();
    await Promise.allSettled(this.loops);
  }

  private async follow(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        this.notified = false;
        const { full, retrySoon } = await this.round();
        failures = 0;
        // A short batch reached the head of the log: the next comes with the doorbell.
        if (full || this.notified) continue;
        await this.idle(retrySoon ?? this.options.idleMs ?? 1000);
      } catch (error) {
        failures += 1;
        this.options.log?.error({ err: error }, 'projection batch failed');
        await this.idle(Math.min(30_000, 250 * 2 ** failures));
      }
    }
  }

  /** One batch for the projections at the head of the pack, and one for each behind it. */
  private async round(): Promise<{ full?: boolean; retrySoon?: number }> {
    const batchSize = this.deps.batchSize ?? DEFAULT_BATCH;
    const now = Date.now();
    const ready = this.projections.filter((p) => (this.backoff.get(p.name)?.until ?? 0) <= now);
    const waits = [...this.backoff.values()].map((b) => Math.max(0, b.until - now));
    let retrySoon = waits.length > 0 ? Math.min(...waits) : undefined;
    if (ready.length === 0) return { retrySoon };
    const checkpoints = await readCheckpointsOf(
      this.deps.sql,
      ready.map((p) => p.name),
    );
    const furthest = [...checkpoints.values()].reduce((max, c) => (c.position > max ? c.position : max), -1n);
    const front = this.oneByOne ? [] : ready.filter((p) => checkpoints.get(p.name)?.position === furthest);
    const behind = ready.filter((p) => !front.includes(p));
    /** Whether a batch came back full: more is waiting, and the loop goes on at once. */
    let full = false;
    if (front.length > 0) {
      try {
        // Each transaction's progress is told as it commits: a group committed first is read sooner.
        const outcome = await applyNextBatchTogether(
          { ...this.deps, keptRows: this.deps.keptRows ?? this.keptRows },
          front,
          furthest,
          (name, failure) => this.reportParked(name, failure),
          (names, position) => {
            for (const name of names) this.options.onAdvance?.(name, position);
          },
        );
        if (outcome.events >= batchSize) full = true;
        if (outcome.busy.length > 0) retrySoon = Math.min(retrySoon ?? BUSY_RETRY_MS, BUSY_RETRY_MS);
      } catch (error) {
        // Those that committed before the failure stand, and were told as they committed.
        this.options.log?.error(
          { err: error },
          'projection batch failed together: next one projection at a time',
        );
        this.oneByOne = true;
        return { retrySoon: 0 };
      }
    }
    let allWell = true;
    for (const projection of behind) {
      try {
        const count = await applyNextBatch(this.deps, projection, (failure) =>
          this.reportParked(projection.name, failure),
        );
        this.backoff.delete(projection.name);
        if (count > 0) {
          if (count >= batchSize) full = true;
          const checkpoint = await readCheckpoint(this.deps.sql, projection.name);
          if (checkpoint) this.options.onAdvance?.(projection.name, checkpoint.position);
        }
      } catch (error) {
        allWell = false;
        const failures = (this.backoff.get(projection.name)?.failures ?? 0) + 1;
        this.backoff.set(projection.name, {
          failures,
          until: Date.now() + Math.min(30_000, 250 * 2 ** failures),
        });
        this.options.log?.error({ err: error, projection: projection.name }, 'projection batch failed');
      }
    }
    if (this.oneByOne && allWell) this.oneByOne = false;
    return { full, retrySoon };
  }

  private reportParked(projection: string, { event, error }: Failure): void {
    this.options.log?.error(
      {
        projection,
        eventId: event.id,
        position: event.position.toString(),
        type: event.type,
        error,
      },
      'event parked: the projection cannot apply it (see projections:status)',
    );
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
