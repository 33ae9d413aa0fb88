import { connect, postgresAt } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import postgres, { type Sql } from 'postgres';
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

  it('reads the streams asked for at the same moment in one statement, each from its own revision', async () => {
    let reads = 0;
    const counted = postgresAt(db.url, {
      max: 2,
      onnotice: () => {},
      types: { bigint: postgres.BigInt },
      debug: (_connection, query) => {
        if (query.includes('with ordinality')) reads += 1;
      },
    });
    const store = createPostgresEventStore({ sql: counted });
    try {
      await store.append('together-a', [newEvent('A0'), newEvent('A1'), newEvent('A2')], 'no_stream');
      await store.append('together-b', [newEvent('B0')], 'no_stream');
      reads = 0;
      const [a, aAgain, aTail, bPast, never] = await Promise.all([
        store.readStream('together-a'),
        store.readStream('together-a'),
        store.readStream('together-a', { fromRevision: 2n }),
        store.readStream('together-b', { fromRevision: 1n }),
        store.readStream('together-never'),
      ]);
      expect(reads).toBe(1);
      expect(a.events.map((event) => event.type)).toEqual(['A0', 'A1', 'A2']);
      expect(a.revision).toBe(2n);
      expect(aAgain).toEqual(a);
      expect(aAgain.events).not.toBe(a.events);
      expect(aTail.events.map((event) => [event.type, event.revision])).toEqual([['A2', 2n]]);
      expect(bPast).toEqual({ events: [], revision: 0n });
      expect(never).toEqual({ events: [], revision: 'no_stream' });
    } finally {
      await counted.end();
    }
  });

  it('rings every follower alike, once for a burst however many appends it makes, and looks once for all', async () => {
    let looks = 0;
    const watched = postgresAt(db.url, {
      max: 2,
      onnotice: () => {},
      debug: (_connection, query) => {
        if (query.includes('eventstore_read_horizon() as below) h')) looks += 1;
      },
    });
    const store = createPostgresEventStore({ sql: watched, gatherMs: 1_000 });
    const calls = [0, 0];
    const stops = calls.map((_, i) =>
      store.watch(() => {
        calls[i]! += 1;
      }),
    );
    try {
      const settled = Date.now() + 5_000;
      while (looks === 0 && Date.now() < settled) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 200));
      calls.fill(0);
      looks = 0;
      const writer = createPostgresEventStore({ sql });
      for (let i = 0; i < 10; i++) await writer.append(`burst-${i}`, [newEvent()], 'no_stream');
      const deadline = Date.now() + 5_000;
      while (calls.some((n) => n === 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // The test files share one server: a transaction of another file still running when the
      // doorbell looks holds the burst above the horizon, and the followers are rung once more
      // when it ends. Without the gathering, the burst rings them several times.
      expect(calls[0]).toBe(calls[1]);
      expect(calls[0]).toBeGreaterThanOrEqual(1);
      expect(calls[0]).toBeLessThanOrEqual(2);
      if (calls[0] === 1) expect(looks).toBe(1);
    } finally {
      for (const stop of stops) await stop();
      await watched.end();
    }
  });
});
