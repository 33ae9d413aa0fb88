import { finished } from 'node:stream/promises';
import type { TransactionSql } from 'postgres';
import { keepDeleted, keepWritten } from './kept-rows';

// Many rows per statement: a batch is written in a few round trips instead of one per event. The
// rows travel as one JSON array that PostgreSQL turns into rows of the table's own type, so the
// statement stays the same whatever the number of rows (prepared once, planned in no time) and
// each value is converted by the column's type as a parameter would be. Rows that are only
// inserted go by COPY instead when every value can (see copyField): PostgreSQL reads COPY's text
// in about three fifths of the time it takes to turn the same rows from JSON, and writing rows is
// most of a rebuild's time.
const ROWS_PER_STATEMENT = 5000;

type Row = object;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;

/**
 * A value as COPY's text format writes it, read by the column's type exactly as the same value in
 * JSON would be; undefined for a value whose JSON PostgreSQL reads otherwise (a string that is not
 * well-formed UTF-16, a number that is not finite, an invalid date, an array or object), so that
 * its rows go as JSON, failing or not as they always have.
 */
function copyField(value: unknown): string | undefined {
  if (value === null || value === undefined) return '\\N';
  switch (typeof value) {
    case 'string':
      if (!value.isWellFormed()) return undefined;
      return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!) : value;
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value instanceof Date && Number.isFinite(value.getTime()) ? value.toISOString() : undefined;
    default:
      return undefined;
  }
}

/** The rows in COPY's text format, one line each; undefined when a value cannot go that way. */
function copyText(rows: readonly Row[], columns: readonly string[]): string | undefined {
  const lines: string[] = [];
  for (const row of rows) {
    const fields: string[] = [];
    for (const column of columns) {
      const field = copyField((row as Record<string, unknown>)[column]);
      if (field === undefined) return undefined;
      fields.push(field);
    }
    lines.push(fields.join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Transactions whose statements several writers send at once, pipelined down their one connection
 * (the projector's round at the head of the log, markPipelined). A COPY has the connection to
 * itself until it is done (the postgres client is patched to hold the statements sent after it
 * meanwhile), which would make the others wait for it: in these transactions rows go as JSON.
 */
const pipelined = new WeakSet<TransactionSql>();

/** Marks `tx` as a transaction whose statements several writers send at once: no COPY there. */
export function markPipelined(tx: TransactionSql): void {
  pipelined.add(tx);
}

/**
 * `copy table (columns) from stdin` with `text`. A row PostgreSQL refuses fails the statement
 * like any other (the postgres client is patched so that a refusal coming after the last row
 * fails the copy instead of leaving it waiting forever).
 */
async function copyInto(tx: TransactionSql, table: string, columns: readonly string[], text: string) {
  const copy = await tx`copy ${tx(table)} (${tx(columns as string[])}) from stdin`.writable();
  copy.end(text);
  await finished(copy);
}

/** `insert into table (columns) select columns from <the rows>`, the columns being those of the rows. */
function insertFrom(tx: TransactionSql, table: string, rows: readonly Row[]) {
  const columns = Object.keys(rows[0]!);
  return tx`insert into ${tx(table)} (${tx(columns)})
    select ${tx(columns)} from json_populate_recordset(null::${tx(table)}, ${JSON.stringify(rows)}::text::json)`;
}

/**
 * Inserts the rows, all with the same columns, into `table`: by COPY when every value of a chunk
 * can go that way and `tx` is not pipelined, else as JSON. The table has no json or jsonb column (where a string would be
 * read as JSON text by COPY, but as a JSON string from JSON).
 */
export async function insertRows(tx: TransactionSql, table: string, rows: readonly Row[]): Promise<void> {
  for (const chunk of chunks(rows)) {
    const columns = Object.keys(chunk[0]!);
    keepWritten(tx, table, columns, chunk);
    const text = pipelined.has(tx) ? undefined : copyText(chunk, columns);
    if (text === undefined) await insertFrom(tx, table, chunk);
    else await copyInto(tx, table, columns, text);
  }
}

/** Inserts the rows, or replaces every column of those whose `key` is already there. */
export async function upsertRows(
  tx: TransactionSql,
  table: string,
  key: string,
  rows: readonly Row[],
): Promise<void> {
  for (const chunk of chunks(rows)) {
    keepWritten(tx, table, Object.keys(chunk[0]!), chunk);
    const set = Object.keys(chunk[0]!)
      .filter((column) => column !== key)
      .map((column) => `"${column}" = excluded."${column}"`)
      .join(', ');
    await tx`${insertFrom(tx, table, chunk)} on conflict (${tx(key)}) do update set ${tx.unsafe(set)}`;
  }
}

/** Deletes the rows whose `key` is one of `ids`. */
export async function deleteRows(
  tx: TransactionSql,
  table: string,
  key: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  keepDeleted(tx, table, key, ids);
  await tx`delete from ${tx(table)} where ${tx(key)} = any(${ids as string[]})`;
}
