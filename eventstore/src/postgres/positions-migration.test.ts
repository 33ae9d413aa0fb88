import { randomUUID } from 'node:crypto';
import { connect, migrate } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainVerifier, chainEvents, GENESIS_HASH } from '../chain';
import { newEvent } from '../contract';
import { eventStoreMigrations } from './migrations';
import { createPostgresEventStore, migrateEventStore } from './postgres-event-store';

let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 2 });
});

afterAll(async () => {
  await sql.end();
  await db.drop();
});

describe('a log written before positions came from transaction ids', () => {
  it('keeps its positions, and every event appended after the migration comes after them', async () => {
    await migrate(sql, 'eventstore', eventStoreMigrations.slice(0, 3));
    // Far more events than transactions: positions a transaction id could fall below.
    await sql`alter table events alter column position restart with 1000000000000000`;
    const oldId = randomUUID();
    await sql`
      select * from eventstore_append('old', null, repeat('0', 64),
        ${sql.json([{ id: oldId, type: 'Old', data: {}, metadata: {} }])}, 'shiftcover_events')`;

    await migrateEventStore(sql);
    const appended = await createPostgresEventStore({ sql }).append('new', [newEvent('New')], 'no_stream');

    const all = await createPostgresEventStore({ sql }).readAll(0n, 10);
    expect(all.map((e) => [e.type, e.position])).toEqual([
      ['Old', 1000000000000000n],
      ['New', appended.position],
    ]);
    expect(appended.position).toBeGreaterThan(1000000000000000n);
  });
});

describe('a log written before streams kept their last chain hash', () => {
  it('goes on chaining each stream to its last event, and still knows a repeated append', async () => {
    const upgraded = await createTestDatabase();
    const old = connect(upgraded.url, { max: 2 });
    try {
      await migrate(old, 'eventstore', eventStoreMigrations.slice(0, 4));
      // Appended as the store of that time appended, through that migration's function.
      const first = newEvent('First');
      const [chained] = chainEvents('kept', 0n, GENESIS_HASH, [first], undefined);
      await old`
        select * from eventstore_append('kept', null, ${GENESIS_HASH},
          ${old.json([{ id: chained!.id, type: chained!.type, data: chained!.data, metadata: chained!.metadata }] as never)})`;

      await migrateEventStore(old);
      const after = createPostgresEventStore({ sql: old });
      await after.append('kept', [newEvent('Second')], 0n);
      const { events } = await after.readStream('kept');
      expect(events.map((e) => e.type)).toEqual(['First', 'Second']);
      const verifier = new ChainVerifier(undefined);
      for (const event of events) verifier.add(event);
      expect(verifier.breaks()).toEqual([]);
      // The first append again, from a store that never saw it: answered with the stored copy.
      const again = await createPostgresEventStore({ sql: old }).append('kept', [first], 'no_stream');
      expect(again.nextRevision).toBe(0n);
    } finally {
      await old.end();
      await upgraded.drop();
    }
  });
});
