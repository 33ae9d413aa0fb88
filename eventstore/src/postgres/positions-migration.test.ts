import { randomUUID } from 'node:crypto';
import { connect, migrate } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
