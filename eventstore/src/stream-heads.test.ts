import { connect } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from './contract';
import type { EventStore } from './port';
import { createPostgresEventStore, migrateEventStore } from './postgres/postgres-event-store';
import { StreamHeads } from './stream-heads';

let db: TestDatabase;
let sql: Sql;
let store: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url);
  await migrateEventStore(sql);
  store = createPostgresEventStore({ sql });
});

afterAll(async () => {
  await sql.end();
  await db.drop();
});

/** The store, counting its reads of stream heads and the streams each read asked about. */
function counted(): { heads: StreamHeads; reads: string[][] } {
  const reads: string[][] = [];
  const heads = new StreamHeads({
    streamHeads: (streamIds) => {
      reads.push([...streamIds]);
      return store.streamHeads(streamIds);
    },
  });
  return { heads, reads };
}

describe('StreamHeads', () => {
  it('answers questions asked at the same moment with one read, each stream asked once', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `heads-many-${i}`);
    for (const id of ids) await store.append(id, [newEvent(), newEvent()], 'any');
    const { heads, reads } = counted();
    const answers = await Promise.all([...ids, ...ids, 'heads-never-written'].map((id) => heads.of(id)));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toHaveLength(ids.length + 1);
    expect(answers.slice(0, ids.length).map((head) => head?.revision)).toEqual(ids.map(() => 1n));
    expect(answers.slice(ids.length, 2 * ids.length)).toEqual(answers.slice(0, ids.length));
    expect(answers.at(-1)).toBeUndefined();
  });

  it('gathers what is asked while a read is on its way into the next read', async () => {
    const { heads, reads } = counted();
    const first = heads.of('heads-wave-0');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toHaveLength(1);
    const later = ['heads-wave-1', 'heads-wave-2', 'heads-wave-3'].map((id) => heads.of(id));
    await Promise.all([first, ...later]);
    expect(reads).toEqual([['heads-wave-0'], ['heads-wave-1', 'heads-wave-2', 'heads-wave-3']]);
  });

  it('never answers from before the question: an append that returned is in the next answer', async () => {
    const { heads } = counted();
    const id = 'heads-fresh';
    for (let revision = 0n; revision < 30n; revision++) {
      // Questions keep a read on its way all along, so each append lands while one is out.
      const busy = heads.of('heads-busy');
      const [event] = [newEvent()];
      await store.append(id, [event!], revision === 0n ? 'no_stream' : revision - 1n);
      expect(await heads.of(id)).toEqual({ revision, eventId: event!.id });
      await busy;
    }
  });

  it('hands a failed read to everyone who asked in it, and reads again for later questions', async () => {
    let fail = true;
    const heads = new StreamHeads({
      streamHeads: async (streamIds) => {
        if (fail) throw new Error('connection lost');
        return store.streamHeads(streamIds);
      },
    });
    const failed = await Promise.allSettled([heads.of('heads-a'), heads.of('heads-b')]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await store.append('heads-after', [newEvent()], 'no_stream');
    expect((await heads.of('heads-after'))?.revision).toBe(0n);
  });
});
