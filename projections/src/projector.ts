import type { EventStore, PersonalDataVault, RecordedEvent } from '@shiftcover/eventstore';
import type { Sql, TransactionSql } from 'postgres';
import type { Checkpoint } from './checkpoints';
import { type Projection, physicalTable, readTable } from './projection';

export interface ProjectorDeps {
  sql: Sql;
  store: EventStore;
  vault: PersonalDataVault;
  batchSize?: number;
}

type Row = { name: string; generation: number; version: number; position: bigint; updated_at: Date };
const toCheckpoint = (row: Row): Checkpoint => ({
  name: row.name,
  generation: row.generation,
  version: row.version,
  position: BigInt(row.position),
  updatedAt: row.updated_at,
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

async function createGeneration(tx: TransactionSql, projection: Projection, generation: number) {
  for (const table of projection.tables)
    await tx.unsafe(`drop table if exists ${physicalTable(table, generation)} cascade`);
  await tx.unsafe(projection.schema((table) => physicalTable(table, generation)));
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
    await createGeneration(tx, projection, 1);
    await pointViewsAt(tx, projection, 1);
    await tx`insert into projection_checkpoints (name, generation, version) values (${projection.name}, 1, ${projection.version})`;
  });
}

async function readOpened(deps: ProjectorDeps, after: bigint, limit: number): Promise<RecordedEvent[]> {
  return deps.vault.open(await deps.store.readAll(after, limit));
}

/**
 * Applies the next batch after the projection's checkpoint, the changes and the new checkpoint in
 * one transaction; returns how many events it applied. A second projector on the same database
 * waits on the checkpoint's row lock and then finds the batch already done.
 */
export async function applyNextBatch(deps: ProjectorDeps, projection: Projection): Promise<number> {
  const batchSize = deps.batchSize ?? 500;
  const before = await readCheckpoint(deps.sql, projection.name);
  if (!before) throw new Error(`Projection ${projection.name} is not installed`);
  const events = await readOpened(deps, before.position, batchSize);
  if (events.length === 0) return 0;
  return deps.sql.begin(async (tx) => {
    const checkpoint = await readCheckpoint(tx, projection.name, true);
    if (!checkpoint || checkpoint.position !== before.position || checkpoint.generation !== before.generation)
      return 0;
    const t = (table: string) => physicalTable(table, checkpoint.generation);
    for (const event of events) await projection.apply(tx, event, t);
    const last = events.at(-1)!.position;
    await tx`update projection_checkpoints set position = ${last.toString()}, updated_at = now() where name = ${projection.name}`;
    return events.length;
  });
}

export interface RebuildProgress {
  position: bigint;
  head: bigint;
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
  await deps.sql.begin((tx) => createGeneration(tx, projection, generation));
  const started = Date.now();
  const batchSize = Math.max(deps.batchSize ?? 2000, 2000);
  let position = 0n;
  let count = 0;
  let head = await deps.store.headPosition();
  for (;;) {
    const events = await readOpened(deps, position, batchSize);
    if (events.length === 0) break;
    await deps.sql.begin(async (tx) => {
      for (const event of events) await projection.apply(tx, event, t);
    });
    position = events.at(-1)!.position;
    count += events.length;
    if (position > head) head = position;
    onProgress({ position, head, events: count, elapsedMs: Date.now() - started });
  }
  await deps.sql.begin(async (tx) => {
    await readCheckpoint(tx, projection.name, true);
    for (;;) {
      const events = await readOpened(deps, position, batchSize);
      if (events.length === 0) break;
      for (const event of events) await projection.apply(tx, event, t);
      position = events.at(-1)!.position;
      count += events.length;
    }
    await pointViewsAt(tx, projection, generation);
    await tx`
      update projection_checkpoints
      set generation = ${generation}, version = ${projection.version}, position = ${position.toString()}, updated_at = now()
      where name = ${projection.name}`;
  });
  for (const table of projection.tables) {
    await deps.sql.unsafe(`drop table if exists ${physicalTable(table, current.generation)} cascade`);
  }
  const done = { position, head: position, events: count, elapsedMs: Date.now() - started };
  onProgress(done);
  return done;
}
