import {
  countEventsAfter,
  type EventStore,
  type PersonalDataVault,
  type RecordedEvent,
} from '@shiftcover/eventstore';
import type { Sql, TransactionSql } from 'postgres';
import type { Checkpoint } from './checkpoints';
import type { KeptRows } from './kept-rows';
import {
  applyBatchOrSetAside,
  type EventConsumer,
  errorText,
  type Failure,
  isTransient,
  park,
  skippedEventIds,
} from './parking';
import { applyEvents, type Projection, physicalTable, readTable } from './projection';
import { markPipelined } from './rows';

export interface ProjectorDeps {
  sql: Sql;
  store: EventStore;
  vault: PersonalDataVault;
  batchSize?: number;
  /** Read-model rows kept between rounds at the head of the log (the runner's), if any. */
  keptRows?: KeptRows;
}

/** Events a projector reads and applies at once when following the log. */
export const DEFAULT_BATCH = 500;

type Row = {
  name: string;
  generation: number;
  version: number;
  position: bigint;
  updated_at: Date;
  writes: bigint;
};
const toCheckpoint = (row: Row): Checkpoint => ({
  name: row.name,
  generation: row.generation,
  version: row.version,
  position: BigInt(row.position),
  updatedAt: row.updated_at,
  writes: BigInt(row.writes),
});

export async function readCheckpoint(
  sql: Sql | TransactionSql,
  name: string,
  lock = false,
): Promise<Checkpoint | null> {
  const rows = lock
    ? await sql<Row[]>`select * from projection_checkpoints where name = ${name} for update`
    : await sql<Row[]>`select * from projection_checkpoints where name = ${name}`;
  return rows[0] ? toCheckpoint(rows[0]) : null;
}

export async function readCheckpoints(sql: Sql): Promise<Checkpoint[]> {
  return (await sql<Row[]>`select * from projection_checkpoints order by name`).map(toCheckpoint);
}

async function createGeneration(
  tx: TransactionSql,
  projection: Projection,
  generation: number,
  withIndexes: boolean,
) {
  const t = (table: string) => physicalTable(table, generation);
  for (const table of projection.tables) await tx.unsafe(`drop table if exists ${t(table)} cascade`);
  await tx.unsafe(projection.schema(t));
  if (withIndexes) await createIndexes(tx, projection, generation);
}

async function createIndexes(sql: Sql | TransactionSql, projection: Projection, generation: number) {
  const indexes = projection.indexes?.((table) => physicalTable(table, generation));
  if (indexes) await sql.unsafe(indexes);
}

async function pointViewsAt(tx: TransactionSql, projection: Projection, generation: number) {
  for (const table of projection.tables) {
    await tx.unsafe(`drop view if exists ${readTable(table)}`);
    await tx.unsafe(`create view ${readTable(table)} as select * from ${physicalTable(table, generation)}`);
  }
}

/** Creates generation 1 and its views the first time a projection is seen. */
export async function install(sql: Sql, projection: Projection): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`projection:${projection.name}`}))`;
    if (await readCheckpoint(tx, projection.name)) return;
    await createGeneration(tx, projection, 1, true);
    await pointViewsAt(tx, projection, 1);
    await tx`insert into projection_checkpoints (name, generation, version) values (${projection.name}, 1, ${projection.version})`;
  });
}

/**
 * Applies the next batch after the projection's checkpoint, the changes and the new checkpoint in
 * one transaction; returns how many events it passed. An event the projection cannot apply is
 * parked in the same transaction and the others are applied. A second projector on the same
 * database waits on the checkpoint's row lock and then finds the batch already done.
 */
export async function applyNextBatch(
  deps: ProjectorDeps,
  projection: Projection,
  onParked: (failure: Failure) => void = () => {},
): Promise<number> {
  const batchSize = deps.batchSize ?? DEFAULT_BATCH;
  const before = await readCheckpoint(deps.sql, projection.name);
  if (!before) throw new Error(`Projection ${projection.name} is not installed`);
  const events = await deps.store.readAll(before.position, batchSize);
  if (events.length === 0) return 0;
  const failures: Failure[] = [];
  const applied = await deps.sql.begin(async (tx) => {
    const checkpoint = await readCheckpoint(tx, projection.name, true);
    if (!checkpoint || checkpoint.position !== before.position || checkpoint.generation !== before.generation)
      return 0;
    const t = (table: string) => physicalTable(table, checkpoint.generation);
    failures.push(
      ...(await applyBatchOrSetAside(tx, events, deps.vault, (sp, batch) =>
        applyEvents(projection, sp, batch, t),
      )),
    );
    for (const failure of failures) await park(tx, projection.name, failure);
    const last = events.at(-1)!.position;
    await tx`update projection_checkpoints set position = ${last.toString()}, updated_at = now() where name = ${projection.name}`;
    return events.length;
  });
  for (const failure of failures) onParked(failure);
  return applied;
}

/** The checkpoints of the named projections, in one query. */
export async function readCheckpointsOf(
  sql: Sql,
  names: readonly string[],
): Promise<Map<string, Checkpoint>> {
  const rows = await sql<Row[]>`select * from projection_checkpoints where name in ${sql(names)}`;
  return new Map(rows.map((row) => [row.name, toCheckpoint(row)]));
}

/** What one batch applied to several projections at once did to each of them. */
export interface TogetherOutcome {
  /** The projections whose checkpoint moved, and where to. */
  advanced: Map<string, bigint>;
  /** The projections another transaction held (a rebuild's swap, a second projector): untouched. */
  busy: string[];
  /** Events read (0: the projections are at the head of the log). */
  events: number;
}

/**
 * Applies the batch after `position` to every projection of `projections` (all at that
 * checkpoint when the caller read them), with one read of the log for all of them. A short batch
 * (the head of the log, where the projectors spend their days) is applied in two transactions, one
 * after the other: one for the read models writers wait to read back, committed first, and one for
 * the rest (headGroups); two commits instead of one per projection for each append. `onCommitted`
 * is told each transaction's projections as soon as it commits. A full batch (catching up) is
 * applied to each projection in a transaction of its own, all at once, so that the database's
 * cores share the work. Each projection's changes, parked events and checkpoint are as in
 * applyNextBatch, and an event one projection cannot apply is parked for that projection alone;
 * a failure that is not the event's (the database) fails the batch, for the caller to retry.
 * A projection whose checkpoint row another transaction holds is passed over, not waited for; one
 * that another projector moved meanwhile is given only the events after its checkpoint.
 */
export async function applyNextBatchTogether(
  deps: ProjectorDeps,
  projections: readonly Projection[],
  position: bigint,
  onParked: (projection: string, failure: Failure) => void = () => {},
  onCommitted: (projections: readonly string[], position: bigint) => void = () => {},
): Promise<TogetherOutcome> {
  const batchSize = deps.batchSize ?? DEFAULT_BATCH;
  const events = await deps.store.readAll(position, batchSize);
  const outcome: TogetherOutcome = { advanced: new Map(), busy: [], events: events.length };
  if (events.length === 0 || projections.length === 0) return outcome;
  const last = events.at(-1)!.position;
  const parked: [string, Failure][] = [];
  /** One projection's share of the batch inside `tx`, its checkpoint row already locked. */
  const applyTo = async (
    tx: TransactionSql,
    projection: Projection,
    checkpoint: Checkpoint | undefined,
    setAside = parked,
  ) => {
    if (!checkpoint) {
      outcome.busy.push(projection.name);
      return false;
    }
    const mine = events.filter((event) => event.position > checkpoint.position);
    if (mine.length === 0) return false;
    const t = (table: string) => physicalTable(table, checkpoint.generation);
    const failures = await applyBatchOrSetAside(tx, mine, deps.vault, (sp, batch) =>
      applyEvents(projection, sp, batch, t),
    );
    for (const failure of failures) {
      await park(tx, projection.name, failure);
      setAside.push([projection.name, failure]);
    }
    return true;
  };
  const lock = async (tx: TransactionSql, names: string[]) =>
    new Map(
      (
        await tx<Row[]>`
          select * from projection_checkpoints where name in ${tx(names)}
          order by name for update skip locked`
      ).map((row) => [row.name, toCheckpoint(row)]),
    );
  const moveTo = (tx: TransactionSql, names: string[]) =>
    tx<{ name: string; writes: bigint }[]>`
      update projection_checkpoints set position = ${last.toString()}, updated_at = now()
      where name in ${tx(names)} returning name, writes`;

  if (events.length < batchSize) {
    /**
     * One group's transaction: its projections at once, or (that having failed) one after
     * another. Returns the projections it advanced, once committed.
     */
    const headRound = async (group: readonly Projection[], atOnce: boolean) => {
      const kept = atOnce ? deps.keptRows : undefined;
      let round: TransactionSql | undefined;
      let writes = new Map<string, bigint>();
      try {
        const done = await deps.sql.begin(async (tx) => {
          const advanced: string[] = [];
          const busy: string[] = [];
          const locked = await lock(tx, group.map((projection) => projection.name).sort());
          for (const projection of group) if (!locked.has(projection.name)) busy.push(projection.name);
          if (atOnce) {
            const shares = group.flatMap((projection) => {
              const checkpoint = locked.get(projection.name);
              return checkpoint && last > checkpoint.position ? [{ projection, checkpoint }] : [];
            });
            if (shares.length === 0) return { advanced, busy };
            // The checkpoints move in the same trip as the read models' statements: should anything
            // fail, the whole transaction is rolled back, the moves with it.
            markPipelined(tx);
            round = tx;
            kept?.begin(
              tx,
              shares.map(({ projection, checkpoint }) => ({
                name: projection.name,
                checkpoint,
                tables: projection.tables.map((table) => physicalTable(table, checkpoint.generation)),
              })),
            );
            const [applied, moved] = await Promise.allSettled([
              allAtOnce(tx, deps.vault, events, shares),
              moveTo(
                tx,
                shares.map(({ projection }) => projection.name),
              ),
            ]);
            if (applied.status === 'rejected') throw applied.reason;
            if (moved.status === 'rejected') throw moved.reason;
            writes = new Map(moved.value.map((row) => [row.name, BigInt(row.writes)]));
            advanced.push(...shares.map(({ projection }) => projection.name));
            return { advanced, busy };
          }
          const groupParked: [string, Failure][] = [];
          for (const projection of group) {
            const checkpoint = locked.get(projection.name);
            if (checkpoint && (await applyTo(tx, projection, checkpoint, groupParked)))
              advanced.push(projection.name);
          }
          if (advanced.length > 0) await moveTo(tx, advanced);
          return { advanced, busy, parked: groupParked };
        });
        if (round) kept?.committed(round, writes);
        return done;
      } catch (error) {
        if (round) kept?.abandoned(round);
        throw error;
      }
    };
    for (const group of headGroups(projections)) {
      // Should a group fail, those committed before it stand; they were told through onCommitted.
      let done: { advanced: string[]; busy: string[]; parked?: [string, Failure][] };
      try {
        done = await headRound(group, true);
      } catch (error) {
        if (!(error instanceof NotAllAtOnce)) throw error;
        done = await headRound(group, false);
      }
      for (const name of done.advanced) outcome.advanced.set(name, last);
      outcome.busy.push(...done.busy);
      parked.push(...(done.parked ?? []));
      if (done.advanced.length > 0) onCommitted(done.advanced, last);
    }
  } else {
    const results = await Promise.allSettled(
      projections.map(async (projection) => {
        const moved = await deps.sql.begin(async (tx) => {
          const locked = await lock(tx, [projection.name]);
          if (!(await applyTo(tx, projection, locked.get(projection.name)))) return false;
          await moveTo(tx, [projection.name]);
          return true;
        });
        // Reported as advanced only once committed: readers trust it to find the events applied.
        if (moved) {
          outcome.advanced.set(projection.name, last);
          onCommitted([projection.name], last);
        }
      }),
    );
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) {
      // What the others committed stands, told through onCommitted; the caller retries the rest.
      for (const [projection, failure] of parked)
        if (outcome.advanced.has(projection)) onParked(projection, failure);
      throw failed.reason;
    }
  }
  for (const [projection, failure] of parked) onParked(projection, failure);
  return outcome;
}

/**
 * The projections of a round at the head of the log, in the groups committed one after another:
 * first those a writer waits to read back (`awaitedByWriters`), so that a claim shows in My Shifts
 * without waiting for the audit log's and the notifications' statements, then the rest. The
 * groups take turns on one connection: the first is committed before the second writes anything,
 * so no open transaction of the projector's own holds back what the next round can read.
 */
function headGroups(projections: readonly Projection[]): Projection[][] {
  const first = projections.filter((projection) => projection.awaitedByWriters);
  const rest = projections.filter((projection) => !projection.awaitedByWriters);
  return [first, rest].filter((group) => group.length > 0);
}

/** Thrown out of a transaction when a projection failed the head's batch given to all at once. */
class NotAllAtOnce extends Error {}

/**
 * The head's batch given to every projection at once inside `tx`: their statements, each
 * projection's in its own order, go down the transaction's one connection together (the client
 * pipelines them), so a round at the head waits for about as many round trips as its longest
 * projection makes rather than for all of theirs one after another. Projections write only their
 * own tables, so the order among them does not matter. When one fails, every projection is let
 * finish before anything is thrown (a statement sent after the failure finds the transaction
 * aborted and fails too), and then NotAllAtOnce, or the transient failure, which rolls the whole
 * transaction back: nothing of the attempt is left, and the caller does the batch again projection
 * by projection, setting aside what cannot be applied.
 */
async function allAtOnce(
  tx: TransactionSql,
  vault: PersonalDataVault | undefined,
  events: readonly RecordedEvent[],
  shares: readonly { projection: Projection; checkpoint: Checkpoint }[],
): Promise<void> {
  let opened: readonly RecordedEvent[];
  try {
    opened = vault ? await vault.open([...events], tx) : events;
  } catch (error) {
    throw isTransient(error) ? error : new NotAllAtOnce(errorText(error));
  }
  const results = await Promise.allSettled(
    shares.map(({ projection, checkpoint }) =>
      applyEvents(
        projection,
        tx,
        opened.filter((event) => event.position > checkpoint.position),
        (table) => physicalTable(table, checkpoint.generation),
      ),
    ),
  );
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (failures.length > 0) throw failures.find(isTransient) ?? new NotAllAtOnce(errorText(failures[0]));
}

/** The projection as a consumer of single events, for retrying a parked one into the live tables. */
export function projectionConsumer(deps: ProjectorDeps, projection: Projection): EventConsumer {
  return {
    name: projection.name,
    handle: (event) =>
      deps.sql.begin(async (tx) => {
        const checkpoint = await readCheckpoint(tx, projection.name, true);
        if (!checkpoint) throw new Error(`Projection ${projection.name} is not installed`);
        await applyEvents(projection, tx, [event], (table) => physicalTable(table, checkpoint.generation));
        // The row is updated, its position and time left as they were, so that the write is counted
        // (projection_checkpoints.writes): a projector's kept rows of these tables are stale now.
        await tx`update projection_checkpoints set updated_at = updated_at where name = ${projection.name}`;
        await tx`delete from parked_events where consumer = ${projection.name} and event_id = ${event.id} and status = 'parked'`;
      }),
  };
}

/** Events read and applied at once in a rebuild: large, as the tables are not yet read by anyone. */
export const REBUILD_BATCH = 5000;

export interface RebuildProgress {
  position: bigint;
  /** Events in the log as far as known: counted when the rebuild began, more if more came. */
  total: number;
  events: number;
  elapsedMs: number;
}

/**
 * Replays the whole log into a fresh generation of tables while the current one keeps serving,
 * then swaps the views over once caught up, under the checkpoint's lock so no batch is lost.
 */
export async function rebuild(
  deps: ProjectorDeps,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => {},
): Promise<RebuildProgress> {
  await install(deps.sql, projection);
  const current = (await readCheckpoint(deps.sql, projection.name))!;
  const generation = current.generation + 1;
  const t = (table: string) => physicalTable(table, generation);
  await deps.sql.begin((tx) => createGeneration(tx, projection, generation, false));
  const started = Date.now();
  const batchSize = Math.max(deps.batchSize ?? REBUILD_BATCH, REBUILD_BATCH);
  // Events an operator skipped stay skipped; those that fail again are parked when the new tables
  // are swapped in, replacing what the old ones had parked.
  let skipped = await skippedEventIds(deps.sql, projection.name);
  const failures: Failure[] = [];
  const applyAll = async (tx: TransactionSql, events: RecordedEvent[]) => {
    const wanted = events.filter((event) => !skipped.has(event.id));
    failures.push(
      ...(await applyBatchOrSetAside(tx, wanted, deps.vault, (sp, batch) =>
        applyEvents(projection, sp, batch, t),
      )),
    );
  };
  let position = 0n;
  let count = 0;
  let total = await countEventsAfter(deps.sql, 0n, Number.MAX_SAFE_INTEGER);
  // The next batch is read on another connection while this one is written (should writing fail,
  // the read is left unheard: the rebuild fails with the writing's error).
  const readAhead = (after: bigint) => {
    const read = deps.store.readAll(after, batchSize);
    read.catch(() => {});
    return read;
  };
  let next = readAhead(position);
  for (;;) {
    const events = await next;
    if (events.length === 0) break;
    position = events.at(-1)!.position;
    next = readAhead(position);
    await deps.sql.begin((tx) => applyAll(tx, events));
    count += events.length;
    if (count > total) total = count;
    onProgress({ position, total, events: count, elapsedMs: Date.now() - started });
  }
  await createIndexes(deps.sql, projection, generation);
  await deps.sql.begin(async (tx) => {
    await readCheckpoint(tx, projection.name, true);
    skipped = await skippedEventIds(tx, projection.name);
    for (;;) {
      const events = await deps.store.readAll(position, batchSize);
      if (events.length === 0) break;
      await applyAll(tx, events);
      position = events.at(-1)!.position;
      count += events.length;
    }
    await pointViewsAt(tx, projection, generation);
    await tx`delete from parked_events where consumer = ${projection.name} and status = 'parked'`;
    for (const failure of failures) await park(tx, projection.name, failure);
    await tx`
      update projection_checkpoints
      set generation = ${generation}, version = ${projection.version}, position = ${position.toString()}, updated_at = now()
      where name = ${projection.name}`;
  });
  for (const table of projection.tables) {
    await deps.sql.unsafe(`drop table if exists ${physicalTable(table, current.generation)} cascade`);
  }
  const done = { position, total: count, events: count, elapsedMs: Date.now() - started };
  onProgress(done);
  return done;
}
