import { connect } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '../contract';
import { type EventStore, type RecordedEvent, WrongExpectedRevision } from '../port';
import { createPostgresEventStore, migrateEventStore } from './postgres-event-store';

const APPENDERS = 8;
const DURATION_MS = 5_000;
const SHARED_STREAMS = ['shared-a', 'shared-b', 'shared-c'];

let db: TestDatabase;
const pools: Sql[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const sql = connect(db.url, { max: 2 });
  pools.push(sql);
  await migrateEventStore(sql);
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await db.drop();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Appends until the deadline, alternating its own stream and contended shared ones, some of the
 * latter together with its own stream.
 */
async function appender(store: EventStore, index: number, deadline: number): Promise<number> {
  let appended = 0;
  let own = -1n;
  while (Date.now() < deadline) {
    const streamId = appended % 3 === 0 ? SHARED_STREAMS[index % SHARED_STREAMS.length]! : `own-${index}`;
    const batch = [newEvent('Tick', { appender: index }), ...(appended % 5 === 0 ? [newEvent('Tock')] : [])];
    if (streamId.startsWith('own')) {
      await store.append(streamId, batch, own < 0n ? 'no_stream' : own);
      own += BigInt(batch.length);
    } else {
      const { revision } = await store.readStream(streamId);
      // Every other contended append also appends to the appender's own stream, in one transaction.
      const withOwn = appended % 2 === 0;
      const ownBatch = withOwn ? [newEvent('Tack', { appender: index })] : [];
      try {
        if (withOwn) {
          await store.appendTogether!([
            { streamId: `own-${index}`, events: ownBatch, expected: own < 0n ? 'no_stream' : own },
            { streamId, events: batch, expected: revision },
          ]);
        } else {
          await store.append(streamId, batch, revision);
        }
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        continue;
      }
      own += BigInt(ownBatch.length);
      appended += ownBatch.length;
    }
    appended += batch.length;
  }
  return appended;
}

describe('a subscriber among concurrent appenders', () => {
  it('sees every committed event exactly once, in an order consistent with each stream', async () => {
    const reader = connect(db.url, { max: 2 });
    pools.push(reader);
    const follower = createPostgresEventStore({ sql: reader, pollIntervalMs: 20 });
    const seen: RecordedEvent[] = [];
    const subscription = follower.subscribeToAll(0n, async (event) => {
      seen.push(event);
    });

    const started = Date.now();
    const deadline = started + DURATION_MS;
    const counts = await Promise.all(
      Array.from({ length: APPENDERS }, (_, i) => {
        const sql = connect(db.url, { max: 1 });
        pools.push(sql);
        // Transactions that hold their commit for a random moment commit out of position order.
        const store = createPostgresEventStore({
          sql,
          beforeCommit: () => sleep(Math.random() < 0.5 ? Math.random() * 20 : 0),
        });
        return appender(store, i, deadline);
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const total = counts.reduce((a, b) => a + b, 0);

    const [row] = await reader<{ count: bigint }[]>`select count(*)::bigint as count from events`;
    expect(Number(row?.count)).toBe(total);
    const waitUntil = Date.now() + 10_000;
    while (seen.length < total && Date.now() < waitUntil) await sleep(20);
    await subscription.stop();

    expect(seen).toHaveLength(total);
    // Delivered exactly as the whole log finally reads: no event appeared behind the subscriber.
    const log = await reader<{ event_id: string }[]>`select event_id from events order by position`;
    expect(seen.map((e) => e.id)).toEqual(log.map((row) => row.event_id));
    const revisions = new Map<string, bigint>();
    for (const event of seen) {
      const expected = (revisions.get(event.streamId) ?? -1n) + 1n;
      expect(event.revision, `${event.streamId} out of order`).toBe(expected);
      revisions.set(event.streamId, event.revision);
    }
    console.log(
      `concurrency: ${APPENDERS} appenders, ${total} events in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} events/s), subscriber saw each once in order`,
    );
  });
});
