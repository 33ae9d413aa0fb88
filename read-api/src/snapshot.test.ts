import { postgresAt } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inOneSnapshot } from './snapshot';

let db: TestDatabase;
/** One connection: whatever a read leaves on it, the next statement finds. */
let single: Sql;
let other: Sql;
let sent: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  single = postgresAt(db.url, {
    max: 1,
    onnotice: () => {},
    debug: (_connection, query) => {
      sent.push(query.trim().split(/\s+/).slice(0, 2).join(' '));
    },
  });
  other = postgresAt(db.url, { max: 1, onnotice: () => {} });
  await other`create table counted (n int)`;
});
afterAll(async () => {
  await single?.end();
  await other?.end();
  await db?.drop();
});

const count = async (sql: Sql) => (await sql<{ n: number }[]>`select count(*)::int as n from counted`)[0]!.n;

describe('a read in one snapshot', () => {
  it('sees one snapshot across its statements, whatever commits between them', async () => {
    const [before, after, committed] = await inOneSnapshot(single, async (tx) => {
      const first = await count(tx);
      await other`insert into counted values (1)`;
      return [first, await count(tx), await count(other)];
    });
    expect(after).toBe(before);
    expect(committed).toBe(before + 1);
  });

  it('sends begin ahead of the statements it is given together, and commits after them', async () => {
    sent = [];
    const rows = await inOneSnapshot(single, (tx) => Promise.all([tx`select 1 as a`, tx`select 2 as b`]));
    expect(rows.map(([row]) => Object.values(row!)[0])).toEqual([1, 2]);
    // The connection comes back once the commit is done.
    await single`select 3`;
    expect(sent).toEqual(['begin isolation', 'select 1', 'select 2', 'commit', 'select 3']);
  });

  it('gives up the transaction and the connection when a statement fails, with its error', async () => {
    await expect(
      inOneSnapshot(single, (tx) => Promise.all([tx`select 1`, tx`select * from nowhere`, tx`select 2`])),
    ).rejects.toThrow(/nowhere/);
    const [setting] = await single<{ isolation: string }[]>`
      select current_setting('transaction_isolation') as isolation`;
    expect(setting?.isolation).toBe('read committed');
    await expect(single`insert into counted values (2)`).resolves.toBeDefined();
  });
});
