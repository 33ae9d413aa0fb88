import { randomUUID } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { connect } from '@shiftcover/platform';
import { createTestDatabase } from '@shiftcover/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainVerifier, canonicalJson, eventHash, GENESIS_HASH } from './chain';
import type { EventStore, NewEvent } from './port';
import { createPostgresEventStore, migrateEventStore } from './postgres/postgres-event-store';

const newEvent = (type: string, data: Record<string, unknown>): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: {
    commandId: randomUUID(),
    correlationId: randomUUID(),
    causationId: randomUUID(),
    actorId: 'auditor-test',
    actorRole: 'admin',
    schemaVersion: 1,
  },
});

/** The text every stored hash was made over, as first written: what canonicalJson must keep making. */
function firstCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(firstCanonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${firstCanonicalJson(v)}`).join(',')}}`;
}

describe('canonical JSON', () => {
  test.prop([fc.dictionary(fc.string(), fc.jsonValue())])('does not depend on key order', (value) => {
    const reversed = Object.fromEntries(Object.entries(value).reverse());
    expect(canonicalJson(reversed)).toBe(canonicalJson(value));
  });

  test.prop([fc.anything({ withSparseArray: true, withNullPrototype: true, withDate: true })])(
    'is the text the chain was first hashed over, for any value: keys left out where undefined, holes, dates',
    (value) => {
      expect(canonicalJson(value)).toBe(firstCanonicalJson(value));
    },
  );

  it('sorts keys by code unit, leaves out undefined values and keeps an array in its order', () => {
    const value = { b: 1, a: [3, { d: undefined, c: 'x', B: null }], é: true, Z: -0 };
    expect(canonicalJson(value)).toBe('{"Z":0,"a":[3,{"B":null,"c":"x"}],"b":1,"é":true}');
  });
});

describe('the hash chain over a stored log', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: ReturnType<typeof connect>;
  let store: EventStore;

  async function verify() {
    const verifier = new ChainVerifier();
    let after = 0n;
    for (;;) {
      const batch = await store.readAll(after, 500);
      if (batch.length === 0) break;
      for (const event of batch) verifier.add(event);
      after = batch.at(-1)!.position;
    }
    return verifier;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url);
    await migrateEventStore(sql);
    store = createPostgresEventStore({ sql, pollIntervalMs: 50 });
    for (let i = 0; i < 5; i++) {
      await store.append(
        `shift-${i}`,
        [newEvent('ShiftCreated', { location: 'Maple House', nested: { b: 1, a: [i] } })],
        'no_stream',
      );
      await store.append(
        `shift-${i}`,
        [newEvent('ShiftClaimed', { userId: `u${i}` }), newEvent('ShiftApproved', {})],
        0n,
      );
      await store.append(`shift-${i}`, [newEvent('ShiftCompleted', { hoursWorked: 480 })], 'any');
    }
  });
  afterAll(async () => {
    await store.close();
    await sql.end();
    await db.drop();
  });

  it('holds for every stream as written', async () => {
    const verifier = await verify();
    expect(verifier.checked).toBe(20);
    expect(verifier.streams).toBe(5);
    expect(verifier.breaks()).toEqual([]);
  });

  it('names the stream and event whose stored content was altered', async () => {
    await sql`update events set data = jsonb_set(data, '{userId}', '"someone-else"') where stream_id = 'shift-2' and revision = 1`;
    const breaks = (await verify()).breaks();
    expect(breaks).toHaveLength(1);
    expect(breaks[0]).toMatchObject({ streamId: 'shift-2', revision: 1n });
    expect(breaks[0]!.reason).toMatch(/changed after it was written/);
  });

  it('notices an event removed from a stream', async () => {
    await sql`delete from events where stream_id = 'shift-4' and revision = 2`;
    const breaks = (await verify()).breaks();
    expect(breaks.map((b) => b.streamId)).toEqual(['shift-2', 'shift-4']);
    expect(breaks[1]!.reason).toMatch(/an event is missing/);
  });
});

describe('the keyed hash chain', () => {
  const key = Buffer.from('a key kept outside the database');
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: ReturnType<typeof connect>;
  let unkeyedStore: EventStore;
  let keyedStore: EventStore;

  async function verify(withKey: Buffer | undefined) {
    const verifier = new ChainVerifier(withKey);
    for (const event of await keyedStore.readAll(0n, 1000)) verifier.add(event);
    return verifier;
  }

  /** What someone with database access but not the key can do: change an event, then re-seal its stream. */
  async function rewrite(
    streamId: string,
    revision: bigint,
    seal: (previous: string, event: NewEvent & { revision: bigint }) => string,
  ) {
    await sql`update events set data = jsonb_set(data, '{userId}', '"intruder"')
      where stream_id = ${streamId} and revision = ${revision.toString()}`;
    const { events } = await keyedStore.readStream(streamId);
    let previous = GENESIS_HASH;
    for (const event of events) {
      const hash = event.revision >= revision ? seal(previous, event) : String(event.metadata.chainHash);
      await sql`update events set metadata = jsonb_set(metadata, '{chainHash}', ${sql.json(hash)})
        where event_id = ${event.id}`;
      previous = hash;
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url);
    await migrateEventStore(sql);
    unkeyedStore = createPostgresEventStore({ sql });
    keyedStore = createPostgresEventStore({ sql, chainKey: key });
    // A stream from before the key, continued after it; then streams written keyed only.
    await unkeyedStore.append('user-early', [newEvent('UserRegistered', { userId: 'u0' })], 'no_stream');
    await keyedStore.append('user-early', [newEvent('UserUpdated', { userId: 'u0' })], 0n);
    for (let i = 1; i <= 3; i++) {
      await keyedStore.append(`user-${i}`, [newEvent('UserRegistered', { userId: `u${i}` })], 'no_stream');
      await keyedStore.append(`user-${i}`, [newEvent('PasswordReset', { userId: `u${i}` })], 0n);
    }
  });
  afterAll(async () => {
    await unkeyedStore.close();
    await keyedStore.close();
    await sql.end();
    await db.drop();
  });

  it('holds under the key, unkeyed events from before the key included', async () => {
    const verifier = await verify(key);
    expect(verifier.checked).toBe(8);
    expect(verifier.unkeyed).toBe(1);
    expect(verifier.breaks()).toEqual([]);
    const [keyed] = (await keyedStore.readStream('user-1')).events;
    expect(keyed!.metadata.chainHash).toMatch(/^v2:[0-9a-f]{64}$/);
  });

  it('cannot be checked without the key, nor with another one', async () => {
    expect((await verify(undefined)).breaks()).toHaveLength(4);
    expect((await verify(Buffer.from('a guessed key'))).breaks()).toHaveLength(4);
  });

  it('catches a rewrite re-sealed with a guessed key', async () => {
    const guessed = Buffer.from('a guessed key');
    await rewrite('user-2', 1n, (previous, event) =>
      eventHash(previous, 'user-2', event.revision, event, guessed),
    );
    expect((await verify(key)).breaks()).toMatchObject([{ streamId: 'user-2', revision: 1n }]);
  });

  it('catches a rewrite re-sealed the unkeyed way, passed off as history from before the key', async () => {
    await rewrite('user-3', 0n, (previous, event) => eventHash(previous, 'user-3', event.revision, event));
    const breaks = (await verify(key)).breaks();
    expect(breaks.map((b) => b.streamId)).toEqual(['user-2', 'user-3']);
    expect(breaks[1]!.reason).toMatch(/unkeyed hash though keyed events come before it/);
  });
});
