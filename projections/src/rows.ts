import type { TransactionSql } from 'postgres';

// Many rows per statement: a batch is written in a few round trips instead of one per event. The
// rows travel as one JSON array that PostgreSQL turns into rows of the table's own type, so the
// statement stays the same whatever the number of rows (prepared once, planned in no time) and
// each value is converted by the column's type as a parameter would be.
const ROWS_PER_STATEMENT = 5000;

type Row = object;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/** `insert into table (columns) select columns from <the rows>`, the columns being those of the rows. */
function insertFrom(tx: TransactionSql, table: string, rows: readonly Row[]) {
  const columns = Object.keys(rows[0]!);
  return tx`insert into ${tx(table)} (${tx(columns)})
    select ${tx(columns)} from json_populate_recordset(null::${tx(table)}, ${JSON.stringify(rows)}::text::json)`;
}

/** Inserts the rows, all with the same columns, into `table`. */
export async function insertRows(tx: TransactionSql, table: string, rows: readonly Row[]): Promise<void> {
  for (const chunk of chunks(rows)) await insertFrom(tx, table, chunk);
}

/** Inserts the rows, or replaces every column of those whose `key` is already there. */
export async function upsertRows(
  tx: TransactionSql,
  table: string,
  key: string,
  rows: readonly Row[],
): Promise<void> {
  for (const chunk of chunks(rows)) {
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
  if (ids.length > 0) await tx`delete from ${tx(table)} where ${tx(key)} = any(${ids as string[]})`;
}
