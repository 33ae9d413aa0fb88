import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';

/** The physical name of a read-model table in the generation being written. */
export type TableName = (table: string) => string;

/**
 * A read model: tables it owns, how each event changes them. Applied in batches, each batch in
 * one transaction with the projection's checkpoint. Personal data arrives opened (or null once
 * erased); a projection must give the same tables whether built event by event or from scratch.
 */
export interface Projection {
  name: string;
  /** Bump when the tables or the way events change them change: the projection is rebuilt. */
  version: number;
  tables: readonly string[];
  /**
   * Read models a writer waits to read back (My Shifts after a claim, a profile after its edit):
   * at the head of the log their batch is committed before the other read models' (headGroups).
   */
  awaitedByWriters?: boolean;
  schema(t: TableName): string;
  /**
   * Optional: indexes that serve only the reads, never the projection's own writes (no unique
   * index an upsert relies on). A rebuild builds them once its rows are written, which is
   * quicker than keeping them up to date row by row.
   */
  indexes?(t: TableName): string;
  apply(tx: TransactionSql, event: RecordedEvent, t: TableName): Promise<void>;
  /**
   * Optional, for speed: applies a whole batch at once (folding it in memory, writing many rows per
   * statement) with exactly the result of `apply` on each event in turn. When present it is used
   * for every batch, and for a single event when a batch is retried event by event to find the
   * one that fails.
   */
  applyBatch?(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName): Promise<void>;
}

/** Applies events to a projection: as one batch when it can, else one by one. */
export async function applyEvents(
  projection: Projection,
  tx: TransactionSql,
  events: readonly RecordedEvent[],
  t: TableName,
): Promise<void> {
  if (projection.applyBatch) return projection.applyBatch(tx, events, t);
  for (const event of events) await projection.apply(tx, event, t);
}

/** A projection's `apply` for one event, from its `applyBatch`. */
export const oneAtATime =
  (applyBatch: NonNullable<Projection['applyBatch']>): Projection['apply'] =>
  (tx, event, t) =>
    applyBatch(tx, [event], t);

export const physicalTable = (table: string, generation: number) => `rm_${table}_g${generation}`;
/** Readers use views named after the table: `rm_<table>`, pointing at the live generation. */
export const readTable = (table: string) => `rm_${table}`;

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Event data as the deciders wrote it; projections read it by field. */
// biome-ignore lint/suspicious/noExplicitAny: the shapes are checked where the events are decided
export type EventData = Record<string, any>;
