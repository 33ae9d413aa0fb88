import type { Sql } from 'postgres';

/**
 * What PostgreSQL has written for the current database so far, as its statistics count it: the
 * cost of a unit of work that grows with every row, index entry and byte of log it writes, however
 * the statements that write them are gathered.
 */
export interface DatabaseWrites {
  /** Table rows inserted, updated or deleted. */
  rows: number;
  /** Of the updates, those made HOT: the new version on the same page, no index touched. */
  hotUpdates: number;
  /**
   * Index entries the writes added: each index of a table once per row inserted and per update not
   * made HOT. A partial index counts too, whether or not the row falls under it: an upper bound.
   */
  indexEntries: number;
  /** Transactions committed, read-only ones included. */
  commits: number;
  /** Bytes of write-ahead log, full-page images included. */
  walBytes: number;
}

/**
 * How long after its last write a backend may keep its counts to itself: a backend that reported
 * less than a second before going idle reports the rest after PostgreSQL's idle interval of 10 s
 * (PGSTAT_IDLE_INTERVAL). A reading taken this long after the writes stopped counts all of them.
 */
export const STATISTICS_SETTLE_MS = 11_000;

/** The database's write counts now (see `STATISTICS_SETTLE_MS` for when they are complete). */
export async function databaseWrites(sql: Sql): Promise<DatabaseWrites> {
  const [row] = await sql<{ rows: string; hot: string; entries: string; commits: string; wal: string }[]>`
    select
      coalesce(sum(t.n_tup_ins + t.n_tup_upd + t.n_tup_del), 0)::text as rows,
      coalesce(sum(t.n_tup_hot_upd), 0)::text as hot,
      coalesce(sum((t.n_tup_ins + t.n_tup_upd - t.n_tup_hot_upd)
        * (select count(*) from pg_index i where i.indrelid = t.relid)), 0)::text as entries,
      (select xact_commit from pg_stat_database where datname = current_database())::text as commits,
      (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text as wal
    from pg_stat_user_tables t`;
  return {
    rows: Number(row!.rows),
    hotUpdates: Number(row!.hot),
    indexEntries: Number(row!.entries),
    commits: Number(row!.commits),
    walBytes: Number(row!.wal),
  };
}

/** What was written between two readings, per unit of work (a pair, say), to two decimals. */
export function writesPer(
  before: DatabaseWrites,
  after: DatabaseWrites,
  units: number,
): DatabaseWrites | undefined {
  if (units <= 0) return undefined;
  const per = (key: keyof DatabaseWrites) => Math.round(((after[key] - before[key]) / units) * 100) / 100;
  return {
    rows: per('rows'),
    hotUpdates: per('hotUpdates'),
    indexEntries: per('indexEntries'),
    commits: per('commits'),
    walBytes: per('walBytes'),
  };
}

/** The write counts once every backend has reported its own: `STATISTICS_SETTLE_MS` from now. */
export async function writesSettled(sql: Sql): Promise<DatabaseWrites> {
  await new Promise((resolve) => setTimeout(resolve, STATISTICS_SETTLE_MS));
  return databaseWrites(sql);
}
