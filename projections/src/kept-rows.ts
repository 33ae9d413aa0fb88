import type { TransactionSql } from 'postgres';
import type { Checkpoint } from './checkpoints';

type Row = Record<string, unknown>;

/** A column of a kept table, with PostgreSQL's type of it (its oid). */
interface Column {
  name: string;
  type: number;
}

/** How many rows of each table are kept; past that the least recently used are let go. */
export const KEPT_ROWS_PER_TABLE = 5_000;

/**
 * One table's rows as its projection last committed them, by key: a row, or null for a key known
 * to have none. Kept only for rows whose every column the projection wrote or read, as
 * PostgreSQL holds them: a row written without one of the table's columns is forgotten instead.
 */
interface KeptTable {
  key: string;
  columns: readonly Column[];
  rows: Map<string, Row | null>;
}

/** What one projection's tables held when its checkpoint row was last written by this projector. */
interface KeptProjection {
  generation: number;
  /** The checkpoint row's count of writes (projection_checkpoints.writes) after that commit. */
  writes: bigint;
  tables: Map<string, KeptTable>;
}

/**
 * The read-model rows a projector read or wrote in its rounds at the head of the log, kept between
 * rounds so that the next round finds the shifts its events are about without reading them again:
 * a claim's round reads the rows its posting's round wrote, an approval's those of the claim.
 *
 * A projection's rows are trusted only while nobody else has written its tables since this
 * projector's last commit. Every writer of a projection's tables updates its checkpoint row in the
 * same transaction (a round of any projector, a retried parked event, a rebuild's swap), and each
 * update of that row counts one more write (`projection_checkpoints.writes`, counted by a trigger);
 * the round locks the row before it reads anything, and uses what is kept only when the count is
 * the one its own last commit left. Otherwise the projection's kept rows are let go and read again.
 *
 * A round's reads and writes are staged on its transaction and kept only once it has committed:
 * a round rolled back (a failure, an event that must be parked) keeps nothing of itself.
 */
export class KeptRows {
  private readonly projections = new Map<string, KeptProjection>();
  /** How many rows rounds found here instead of reading them: for tests and diagnostics. */
  served = 0;

  constructor(readonly perTable = KEPT_ROWS_PER_TABLE) {}

  /**
   * Stages `tx`, a round at the head whose checkpoint rows are locked, for the given projections:
   * reads of their tables through `rowsByKey` find what is kept, and their writes are staged.
   */
  begin(
    tx: TransactionSql,
    shares: readonly { name: string; checkpoint: Checkpoint; tables: readonly string[] }[],
  ): void {
    const round: Round = { kept: this, tables: new Map(), projections: [], owners: new Map() };
    for (const { name, checkpoint, tables } of shares) {
      let kept = this.projections.get(name);
      if (!kept || kept.generation !== checkpoint.generation || kept.writes !== checkpoint.writes) {
        kept = { generation: checkpoint.generation, writes: -1n, tables: new Map() };
        this.projections.set(name, kept);
      }
      const owner = { name, kept };
      round.projections.push(owner);
      for (const table of tables) round.owners.set(table, owner);
    }
    rounds.set(tx, round);
  }

  /**
   * After `tx` committed: what it read and wrote is kept, with the checkpoint rows' counts of
   * writes its updates left (`writes`, by projection).
   */
  committed(tx: TransactionSql, writes: ReadonlyMap<string, bigint>): void {
    const round = rounds.get(tx);
    rounds.delete(tx);
    if (!round) return;
    for (const [physical, staged] of round.tables) {
      const table = staged.owner.kept.tables.get(physical) ?? {
        key: staged.key,
        columns: staged.columns,
        rows: new Map(),
      };
      staged.owner.kept.tables.set(physical, table);
      for (const [key, row] of staged.rows) {
        table.rows.delete(key);
        if (row !== undefined) table.rows.set(key, row);
      }
      // A Map iterates in insertion order: the first keys are those least recently read or written.
      for (const key of table.rows.keys()) {
        if (table.rows.size <= this.perTable) break;
        table.rows.delete(key);
      }
    }
    for (const { name, kept, forget } of round.projections) {
      const count = writes.get(name);
      if (count === undefined || forget) this.projections.delete(name);
      else kept.writes = count;
    }
  }

  /** After `tx` failed or was rolled back: nothing of it is kept, nor anything of its projections. */
  abandoned(tx: TransactionSql): void {
    const round = rounds.get(tx);
    rounds.delete(tx);
    for (const { name } of round?.projections ?? []) this.projections.delete(name);
  }
}

interface StagedTable {
  owner: Round['projections'][number];
  key: string;
  columns: readonly Column[];
  /** A row read or written, null for a key read and not found, undefined for a row to forget. */
  rows: Map<string, Row | null | undefined>;
}

interface Round {
  kept: KeptRows;
  /** `forget`: the round wrote the projection's tables in a way its kept rows cannot follow. */
  projections: { name: string; kept: KeptProjection; forget?: boolean }[];
  tables: Map<string, StagedTable>;
  /** The projection of the round that owns each physical table. */
  owners: Map<string, Round['projections'][number]>;
}

const rounds = new WeakMap<TransactionSql, Round>();

/** The rows of `table` (a physical table) whose `key` is one of `ids`, as `select *` finds them. */
export async function rowsByKey<R extends object>(
  tx: TransactionSql,
  table: string,
  key: string,
  ids: readonly string[],
): Promise<R[]> {
  if (ids.length === 0) return [];
  const round = rounds.get(tx);
  const owner = round?.owners.get(table);
  if (!round || !owner)
    return [...(await tx<R[]>`select * from ${tx(table)} where ${tx(key)} = any(${ids as string[]})`)];
  const staged = round.tables.get(table);
  const kept = owner.kept.tables.get(table);
  const found: R[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const row = staged?.rows.has(id) ? staged.rows.get(id) : kept?.rows.get(id);
    if (row === undefined) {
      missing.push(id);
      continue;
    }
    // Staged again as read, so that a row found often is kept longer than one found once.
    if (staged?.rows.has(id) !== true) stageTable(round, owner, table, key, kept!.columns).rows.set(id, row);
    if (row !== null) found.push({ ...row } as R);
  }
  round.kept.served += ids.length - missing.length;
  if (missing.length === 0) return found;
  const read = await tx<R[]>`select * from ${tx(table)} where ${tx(key)} = any(${missing})`;
  const into = stageTable(
    round,
    owner,
    table,
    key,
    read.columns.map(({ name, type }) => ({ name, type })),
  );
  const readKeys = new Set<string>();
  for (const row of read) {
    const id = String((row as Row)[key]);
    readKeys.add(id);
    into.rows.set(id, { ...row } as Row);
    found.push(row);
  }
  for (const id of missing) if (!readKeys.has(id)) into.rows.set(id, null);
  return found;
}

function stageTable(
  round: Round,
  owner: Round['projections'][number],
  table: string,
  key: string,
  columns: readonly Column[],
): StagedTable {
  let staged = round.tables.get(table);
  if (!staged) {
    staged = { owner, key, columns, rows: new Map() };
    round.tables.set(table, staged);
    if (!owner.kept.tables.has(table)) owner.kept.tables.set(table, { key, columns, rows: new Map() });
  }
  return staged;
}

/**
 * Stages rows a round wrote to `table` in a statement whose columns were `columns` (the first
 * row's): as PostgreSQL will hold them, an undefined value being a null; a row that leaves out a
 * column of the table (PostgreSQL would give it its default, or keep what it had), or holds a value
 * that would be read back as another (asRead), is forgotten. Does nothing for a table whose rows
 * are not kept.
 */
export function keepWritten(
  tx: TransactionSql,
  table: string,
  columns: readonly string[],
  rows: readonly object[],
): void {
  const staged = stagedTableOf(tx, table);
  if (!staged) return;
  const written = new Set(columns);
  const complete = staged.columns.every((column) => written.has(column.name));
  for (const row of rows) {
    const id = String((row as Row)[staged.key]);
    staged.rows.set(id, complete ? asRead(staged.columns, row as Row) : undefined);
  }
}

const BOOL = 16;
const INT2 = 21;
const INT4 = 23;
const TEXT = 25;
const JSON_TYPE = 114;
const TEXT_ARRAY = 1009;
const VARCHAR = 1043;
const TIMESTAMPTZ = 1184;
const JSONB = 3802;

/**
 * The row as reading it back would give it, or undefined (forget it) where a value would come back
 * as another value: a number written to a text column comes back a string, say, which a projection
 * may treat otherwise. A time is kept as written, a Date or the event's text, as the projections
 * already take both (a row changed earlier in the same batch holds the text).
 */
function asRead(columns: readonly Column[], row: Row): Row | undefined {
  const read: Row = {};
  for (const { name, type } of columns) {
    const value = row[name] ?? null;
    if (value === null) {
      read[name] = null;
      continue;
    }
    switch (type) {
      case TEXT:
      case VARCHAR:
        if (typeof value !== 'string') return undefined;
        break;
      case BOOL:
        if (typeof value !== 'boolean') return undefined;
        break;
      case INT2:
      case INT4:
        if (!Number.isInteger(value)) return undefined;
        break;
      case TIMESTAMPTZ:
        if (typeof value !== 'string' && !(value instanceof Date && Number.isFinite(value.getTime())))
          return undefined;
        break;
      case TEXT_ARRAY:
        if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return undefined;
        break;
      case JSON_TYPE:
      case JSONB:
        read[name] = JSON.parse(JSON.stringify(value));
        continue;
      default:
        return undefined;
    }
    read[name] = value;
  }
  return read;
}

/**
 * Stages the rows a round deleted from `table` whose `key` is one of `ids`. Deleted by another
 * column than the one its rows are kept by, the projection's kept rows are let go at commit.
 */
export function keepDeleted(tx: TransactionSql, table: string, key: string, ids: readonly string[]): void {
  const staged = stagedTableOf(tx, table);
  if (!staged) return;
  if (key !== staged.key) staged.owner.forget = true;
  else for (const id of ids) staged.rows.set(id, null);
}

/** The staged table of a table whose rows are kept, or undefined. */
function stagedTableOf(tx: TransactionSql, table: string): StagedTable | undefined {
  const round = rounds.get(tx);
  if (!round) return undefined;
  const staged = round.tables.get(table);
  if (staged) return staged;
  const owner = round.owners.get(table);
  const kept = owner?.kept.tables.get(table);
  if (!owner || !kept) return undefined;
  return stageTable(round, owner, table, kept.key, kept.columns);
}
