import { openBench } from '@shiftcover/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseWrites, databaseWrites, writesPer } from './writes';

describe("a database's write counts", () => {
  let bench: Awaited<ReturnType<typeof openBench>>;
  beforeAll(async () => {
    bench = await openBench(2);
  });
  afterAll(() => bench?.close());

  it('counts the rows, index entries, commits and log a unit of work wrote', async () => {
    const conn = await bench.sql.reserve();
    try {
      // Counted on the backend that reads them: a forced report makes them visible at once.
      const reading = async () => {
        await conn`select pg_stat_force_next_flush()`;
        return databaseWrites(conn);
      };
      await conn`create table counted (id int primary key, code text not null, note text) with (fillfactor = 50)`;
      await conn`create index on counted (code)`;
      const before = await reading();
      // 10 inserts (2 indexes each), 10 updates of an unindexed column with room on the page (HOT),
      // 5 of an indexed column (not HOT: both indexes again) and 5 deletes, in 4 transactions.
      await conn`insert into counted select i, 'c' || i, null from generate_series(1, 10) i`;
      await conn`update counted set note = 'seen'`;
      await conn`update counted set code = code || 'x' where id <= 5`;
      await conn`delete from counted where id > 5`;
      const after = await reading();
      const per = writesPer(before, after, 5)!;
      expect(per.rows).toBe((10 + 10 + 5 + 5) / 5);
      expect(per.hotUpdates).toBe(10 / 5);
      expect(per.indexEntries).toBe(((10 + 15 - 10) * 2) / 5);
      // The 4 writes and the reading's own statements, each its own transaction.
      expect(per.commits * 5).toBeGreaterThanOrEqual(4);
      expect(per.walBytes).toBeGreaterThan(0);
    } finally {
      conn.release();
    }
  });

  it('answers nothing for no work', () => {
    const zero: DatabaseWrites = { rows: 0, hotUpdates: 0, indexEntries: 0, commits: 0, walBytes: 0 };
    expect(writesPer(zero, { ...zero, rows: 4 }, 0)).toBeUndefined();
    expect(writesPer(zero, { ...zero, rows: 4, walBytes: 1000 }, 2)).toEqual({
      ...zero,
      rows: 2,
      walBytes: 500,
    });
  });
});
