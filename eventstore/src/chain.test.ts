import { randomUUID } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { connect } from '@shiftcover/platform';
import { createTestDatabase } from '@shiftcover/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainVerifier, canonicalJson } from './chain';
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

describe('canonical JSON', () => {
  test.prop([fc.dictionary(fc.string(), fc.jsonValue())])('does not depend on key order', (value) => {
    const reversed = Object.fromEntries(Object.entries(value).reverse());
    expect(canonicalJson(reversed)).toBe(canonicalJson(value));
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
