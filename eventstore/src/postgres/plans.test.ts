import { postgresAt } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '../contract';
import { readHorizon } from './notifications';
import { createPostgresEventStore, migrateEventStore } from './postgres-event-store';

let db: TestDatabase;
let sql: Sql;
/** What the server told this connection: with auto_explain, the plan of every statement run. */
const notices: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // One connection, so that the plans the function keeps are those of the connection appending.
  sql = postgresAt(db.url, {
    max: 1,
    types: { bigint: postgres.BigInt },
    onnotice: (notice) => notices.push(String(notice.message)),
  });
  await migrateEventStore(sql);
});

afterAll(async () => {
  await sql.end();
  await db.drop();
});

describe('an append and a read as the log grows', () => {
  it('finds each row it reads through an index, whatever the size of the log when the connection first appended or read', async (context) => {
    const explained = await sql`load 'auto_explain'`.then(
      () => true,
      () => false,
    );
    if (!explained) context.skip('auto_explain cannot be loaded on this server');
    await sql`set auto_explain.log_min_duration = 0`;
    await sql`set auto_explain.log_nested_statements = on`;
    await sql`set client_min_messages = log`;
    const store = createPostgresEventStore({ sql });
    // While the log is small, PostgreSQL settles on one plan for each of the function's statements:
    // after five executions it keeps a generic plan, made for tables of a few rows.
    for (let i = 0; i < 10; i++) {
      await store.append(`early-${i}`, [newEvent()], 'no_stream');
      await store.append(`early-${i}`, [newEvent()], 0n);
      await Promise.all([store.readStream(`early-${i}`), store.readStream('early-0', { fromRevision: 1n })]);
      await store.appendTogether!([
        { streamId: `early-${i}`, events: [newEvent()], expected: 1n },
        { streamId: `early-pair-${i}`, events: [newEvent()], expected: 'no_stream' },
      ]);
      // Appends made together: the first two go at once, the other two together in one statement.
      await Promise.all(
        ['a', 'b', 'c', 'd'].map((name) => store.append(`early-${name}-${i}`, [newEvent()], 'no_stream')),
      );
      // The doorbell's look at the horizon and at whether events wait above it; the log is read.
      await readHorizon(sql);
      await store.readAll(0n, 5);
    }
    await sql`
      insert into events (position, event_id, stream_id, revision, type, data, metadata)
      select pg_current_xact_id()::text::bigint * 1048576 + i, gen_random_uuid(), 'bulk-' || i, 0, 'Thing', '{}', '{}'
      from generate_series(1, 20000) i`;
    await sql`
      insert into event_streams (stream_id, revision, last_hash)
      select 'bulk-' || i, 0, repeat('0', 64) from generate_series(1, 20000) i`;

    notices.length = 0;
    const late = newEvent();
    await store.append('late', [late], 'no_stream');
    await createPostgresEventStore({ sql }).append('early-3', [newEvent()], 2n);
    // An append that does not go through looks at what is stored: a repeat, then a stale revision.
    await store.append('late', [late], 'no_stream');
    await expect(createPostgresEventStore({ sql }).append('early-5', [newEvent()], 0n)).rejects.toThrow();
    await createPostgresEventStore({ sql }).appendTogether!([
      { streamId: 'early-4', events: [newEvent()], expected: 2n },
      { streamId: 'bulk-9', events: [newEvent()], expected: 0n },
    ]);
    // Gathered: a new stream, one moved on, a repeat and a stale revision in one statement.
    const gathered = createPostgresEventStore({ sql });
    const gatheredOutcomes = await Promise.allSettled([
      gathered.append('late-lead-1', [newEvent()], 'no_stream'),
      gathered.append('late-lead-2', [newEvent()], 'no_stream'),
      gathered.append('late-gathered', [newEvent()], 'no_stream'),
      gathered.append('bulk-11', [newEvent()], 0n),
      gathered.append('late', [late], 'no_stream'),
      gathered.append('early-6', [newEvent()], 0n),
    ]);
    expect(gatheredOutcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    const [read] = await Promise.all([
      store.readStream('early-3'),
      store.readStream('bulk-7', { fromRevision: 1n }),
    ]);
    await readHorizon(sql);
    await store.readAll(0n, 5);
    expect(notices.some((notice) => notice.includes('eventstore_read_horizon() as below) h'))).toBe(true);
    expect(read.events).toHaveLength(4);
    expect(notices.some((notice) => notice.includes('with ordinality'))).toBe(true);
    const check = notices.find((notice) => notice.includes("'duplicate'::text, e.revision"));
    expect(check).toBeDefined();
    expect(check).toContain('events_event_id_key');
    const streams = notices.filter((notice) =>
      /from event_streams s where|update event_streams/.test(notice),
    );
    expect(streams.length).toBeGreaterThanOrEqual(5);
    expect(notices.some((notice) => notice.includes('eventstore_append_each'))).toBe(true);
    for (const plan of streams) expect(plan).toContain('Index Scan using event_streams_pkey');
    for (const plan of notices) {
      expect(plan).not.toMatch(/Index Scan Backward using events_pkey|Seq Scan on (events|event_streams)\b/);
    }
  });
});
