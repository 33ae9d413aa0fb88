import { openBench, perFile } from '@shiftcover/testing';
import fc from 'fast-check';
import type { TransactionSql } from 'postgres';
import { describe, expect, it } from 'vitest';
import { insertRows, markPipelined, upsertRows } from './rows';

const bench = perFile(openBench);

const columns = `
  id int primary key,
  label text,
  mixed text,
  count int,
  flag boolean,
  at timestamptz`;

let tables = 0;
/** A new table with every kind of column the read models insert rows into. */
async function newTable(tx: TransactionSql): Promise<string> {
  const name = `rows_test_${++tables}`;
  await tx.unsafe(`create table ${name} (${columns})`);
  return name;
}

/** The table's rows, or that they were refused; inside a savepoint, so a failure leaves `tx` usable. */
async function outcome(tx: TransactionSql, write: (sp: TransactionSql, table: string) => Promise<void>) {
  const table = await newTable(tx);
  try {
    await tx.savepoint((sp) => write(sp, table));
  } catch {
    return { failed: true };
  }
  return { rows: await tx`select * from ${tx(table)} order by id` };
}

// Mostly text COPY carries (with every character it treats apart), some that it leaves to JSON
// (lone surrogates) or that PostgreSQL refuses either way (NUL).
const text = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.string({ unit: fc.constantFrom('\\', '\t', '\n', '\r', '.', 'N', 'a', 'é', '😀', ' ') }),
  },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 2, arbitrary: fc.constantFrom('\\.', '\\N', 'NULL', '', '\\') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', 'a\udc00b', 'nul \u0000') },
);
const row = fc.record({
  label: fc.option(text, { nil: null }),
  mixed: fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
  count: fc.option(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { nil: null }),
  flag: fc.option(fc.boolean(), { nil: null }),
  at: fc.option(fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01') }), { nil: null }),
});

describe('rows written many at a time', () => {
  it('inserted by COPY are the rows the same values give as JSON, and fail where JSON fails', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), async (values) => {
        const rows = values.map((value, id) => ({ id, ...value }));
        await bench.sql.begin(async (tx) => {
          // upsertRows always sends JSON; on a new table it inserts every row.
          const asJson = await outcome(tx, (sp, table) => upsertRows(sp, table, 'id', rows));
          const inserted = await outcome(tx, (sp, table) => insertRows(sp, table, rows));
          expect(inserted).toEqual(asJson);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('carries text with every character COPY treats apart, and dates, booleans and numbers', async () => {
    const rows = [
      {
        id: 1,
        label: 'tab\there\nnew line\r\\ back\\slash \\. \\N',
        mixed: true,
        count: 7,
        flag: false,
        at: null,
      },
      { id: 2, label: null, mixed: 1.5, count: null, flag: true, at: new Date('2026-03-08T07:30:00Z') },
      { id: 3, label: '\\', mixed: undefined, count: -1, flag: null, at: null },
    ];
    const written = await bench.sql.begin(async (tx) => {
      const table = await newTable(tx);
      await insertRows(tx, table, rows);
      return tx`select * from ${tx(table)} order by id`;
    });
    expect(written).toEqual([
      { ...rows[0], mixed: 'true' },
      { ...rows[1], mixed: '1.5' },
      { ...rows[2], mixed: null },
    ]);
  });

  it('fails, without waiting, when PostgreSQL refuses a row after it has them all, and leaves the transaction usable', {
    timeout: 20_000,
  }, async () => {
    const counted = await bench.sql.begin(async (tx) => {
      const table = await newTable(tx);
      await tx.unsafe(`alter table ${table} alter column label set not null`);
      await expect(
        tx.savepoint((sp) =>
          insertRows(sp, table, [
            { id: 1, label: 'fine' },
            { id: 2, label: null },
          ]),
        ),
      ).rejects.toThrow(/not-null/);
      await expect(tx.savepoint((sp) => insertRows(sp, table, [{ id: 1, count: 'seven' }]))).rejects.toThrow(
        /integer/,
      );
      await insertRows(tx, table, [{ id: 3, label: 'kept' }]);
      return tx`select id, label from ${tx(table)}`;
    });
    expect(counted).toEqual([{ id: 3, label: 'kept' }]);
  });

  it('fails when PostgreSQL refuses the first of many rows while the rest are still on their way', {
    timeout: 20_000,
  }, async () => {
    const many = Array.from({ length: 12_000 }, (_, i) => ({ id: i, label: `${'x'.repeat(200)} ${i}` }));
    many[0] = { id: 0, label: null as unknown as string };
    await bench.sql.begin(async (tx) => {
      const table = await newTable(tx);
      await tx.unsafe(`alter table ${table} alter column label set not null`);
      await expect(tx.savepoint((sp) => insertRows(sp, table, many))).rejects.toThrow(/not-null/);
      await insertRows(tx, table, many.slice(1));
      const [counted] = await tx<{ count: number }[]>`select count(*)::int from ${tx(table)}`;
      expect(counted?.count).toBe(11_999);
    });
  });

  it('lets the statements sent beside a COPY on the same transaction wait for it, not break it', {
    timeout: 20_000,
  }, async () => {
    const many = Array.from({ length: 3000 }, (_, id) => ({ id, label: `row ${id}` }));
    const counts = await bench.sql.begin(async (tx) => {
      const [first, second] = [await newTable(tx), await newTable(tx)];
      // Sent in one go, pipelined: the second COPY and the statements around both go down the
      // connection while the first COPY is still under way.
      const [, , , , counted] = await Promise.all([
        insertRows(tx, first, many),
        tx`select 1`,
        insertRows(tx, second, many.slice(0, 10)),
        upsertRows(tx, second, 'id', [{ id: 5000, label: 'upserted' }]),
        tx<{ n: number }[]>`select count(*)::int as n from ${tx(first)}`,
      ]);
      const [inSecond] = await tx<{ n: number }[]>`select count(*)::int as n from ${tx(second)}`;
      return [counted[0]?.n, inSecond?.n];
    });
    expect(counts).toEqual([3000, 11]);
  });

  it('sends rows as JSON in a transaction marked as pipelined', async () => {
    // A string for a jsonb column tells the two apart: JSON carries it as a JSON string, while
    // COPY hands PostgreSQL its text to read as JSON (hence insertRows' rule: no json columns).
    const write = (pipelined: boolean) =>
      bench.sql.begin(async (tx) => {
        await tx`create temporary table if not exists rows_json (id int primary key, doc jsonb)`;
        await tx`truncate rows_json`;
        if (pipelined) markPipelined(tx);
        await insertRows(tx, 'rows_json', [{ id: 1, doc: 'plain text' }]);
        return tx`select doc from rows_json`;
      });
    expect(await write(true)).toEqual([{ doc: 'plain text' }]);
    await expect(write(false)).rejects.toThrow(/json/);
  });
});
