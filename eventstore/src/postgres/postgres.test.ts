import { connect } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainVerifier } from '../chain';
import { eventStoreContract, newEvent } from '../contract';
import { createPostgresEventStore, migrateEventStore } from './postgres-event-store';

eventStoreContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  const sql = connect(db.url);
  await migrateEventStore(sql);
  const store = createPostgresEventStore({ sql, pollIntervalMs: 50 });
  return {
    store,
    async dispose() {
      await store.close();
      await sql.end();
      await db.drop();
    },
  };
});

describe('PostgreSQL appends chained from what a store last saw', () => {
  let db: TestDatabase;
  let sql: Sql;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url);
    await migrateEventStore(sql);
  });
  afterAll(async () => {
    await sql.end();
    await db.drop();
  });

  const chainOf = async (streamId: string) => {
    const verifier = new ChainVerifier();
    const store = createPostgresEventStore({ sql });
    for (const event of (await store.readStream(streamId)).events) verifier.add(event);
    return verifier.breaks();
  };

  it('an append "at any revision" after another process appended lands after it, chained to it', async () => {
    const mine = createPostgresEventStore({ sql });
    const theirs = createPostgresEventStore({ sql });
    await mine.append('any-after-other', [newEvent()], 'no_stream');
    await theirs.append('any-after-other', [newEvent()], 0n);
    expect((await mine.append('any-after-other', [newEvent()], 'any')).nextRevision).toBe(2n);
    expect(await chainOf('any-after-other')).toEqual([]);
  });

  it('a stream written anew since it was read is chained to its real last event', async () => {
    const mine = createPostgresEventStore({ sql });
    await mine.append('rewritten', [newEvent('Old')], 'no_stream');
    await sql`delete from events where stream_id = 'rewritten'`;
    await sql`delete from event_streams where stream_id = 'rewritten'`;
    await createPostgresEventStore({ sql }).append('rewritten', [newEvent('New')], 'no_stream');
    expect((await mine.append('rewritten', [newEvent('Next')], 0n)).nextRevision).toBe(1n);
    expect(await chainOf('rewritten')).toEqual([]);
  });
});
