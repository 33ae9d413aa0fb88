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
  schema(t: TableName): string;
  apply(tx: TransactionSql, event: RecordedEvent, t: TableName): Promise<void>;
}

export const physicalTable = (table: string, generation: number) => `rm_${table}_g${generation}`;
/** Readers use views named after the table: `rm_<table>`, pointing at the live generation. */
export const readTable = (table: string) => `rm_${table}`;

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Event data as the deciders wrote it; projections read it by field. */
// biome-ignore lint/suspicious/noExplicitAny: the shapes are checked where the events are decided
export type EventData = Record<string, any>;
