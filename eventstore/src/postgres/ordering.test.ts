import { connect } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, newEvent } from '../contract';
import type { AppendResult, EventStore } from '../port';
import { createPostgresEventStore, migrateEventStore } from './postgres-event-store';

let db: TestDatabase;
let sql: Sql;
const pools: Sql[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 2 });
  await migrateEventStore(sql);
});

afterAll(async () => {
  await Promise.all([sql, ...pools].map((pool) => pool.end()));
  await db.drop();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function signal() {
  let give!: () => void;
  const given = new Promise<void>((resolve) => {
    give = resolve;
  });
  return { give, given };
}

/** Rejects when `promise` has not settled within `ms`, naming what it waited for. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms).then(() => Promise.reject(new Error(`waited ${ms} ms in vain for ${what}`))),
  ]);
}

/** An append whose transaction, once written, waits before its commit until it is let go. */
function heldAppend(streamId: string) {
  const pool = connect(db.url, { max: 1 });
  pools.push(pool);
  const written = signal();
  const letGo = signal();
  const store = createPostgresEventStore({
    sql: pool,
    beforeCommit: async () => {
      written.give();
      await letGo.given;
    },
  });
  const event = newEvent();
  const result: Promise<AppendResult> = store.append(streamId, [event], 'no_stream');
  return { event, written: written.given, commit: letGo.give, result };
}

/**
 * A subscriber that only a notification wakes within the test: its poll would come far too late.
 * Its reads wait for older transactions a tenth of the default, so that a test outlasting that
 * wait holds its own transaction open briefly: the test files share one server, whose oldest
 * transaction holds back every other file's reads too.
 */
const FOLLOWER_READ_WAIT_MS = 100;
function slowPollingFollower(): EventStore {
  return createPostgresEventStore({ sql, pollIntervalMs: 600_000, readWaitMs: FOLLOWER_READ_WAIT_MS });
}

describe('PostgreSQL appends to different streams', () => {
  it('are not made to take turns: both are written and waiting to commit at the same time', async () => {
    const first = heldAppend('parallel-a');
    await within(first.written, 5_000, 'the first append to be written');
    const second = heldAppend('parallel-b');
    try {
      await within(second.written, 5_000, 'the second append to be written while the first waits to commit');
    } finally {
      first.commit();
      second.commit();
      await Promise.allSettled([first.result, second.result]);
    }
  });
});

describe('a follower of the log', () => {
  it('does not pass an earlier append that commits after a later one, and then delivers both once', async () => {
    const store = slowPollingFollower();
    const start = await store.headPosition();
    const earlier = heldAppend('earlier');
    await earlier.written;
    const later = heldAppend('later');
    await later.written;
    const { seen, done } = collect(store, start, 2);
    let laterAt: bigint;
    let earlierAt: bigint;
    try {
      later.commit();
      laterAt = (await later.result).position;
      expect(await store.headPosition()).toBe(laterAt);
      expect(await store.readAll(start, 10)).toEqual([]);
      // Long enough for the notification of the later commit to arrive and be acted on.
      await sleep(300);
      expect(seen).toEqual([]);
    } finally {
      earlier.commit();
      earlierAt = (await earlier.result).position;
    }
    expect(earlierAt).toBeLessThan(laterAt);
    await done;
    await sleep(100);
    expect(seen.map((e) => [e.id, e.position])).toEqual([
      [earlier.event.id, earlierAt],
      [later.event.id, laterAt],
    ]);
  });

  it('held back by a transaction that is no append, reads on as soon as it ends, without waiting to poll', async () => {
    const store = slowPollingFollower();
    const start = await store.headPosition();
    const { seen, done } = collect(store, start, 1, 5_000);
    const blocker = connect(db.url, { max: 1 });
    pools.push(blocker);
    const holding = signal();
    const ended = signal();
    const blocking = blocker.begin(async (tx) => {
      await tx`select pg_current_xact_id()`;
      holding.give();
      await ended.given;
    });
    let appended: AppendResult;
    try {
      await holding.given;
      appended = await createPostgresEventStore({ sql }).append('behind-a-writer', [newEvent()], 'no_stream');
      // Longer than the follower's read waits for older transactions: only looking again wakes it.
      await sleep(4 * FOLLOWER_READ_WAIT_MS);
      expect(seen).toEqual([]);
    } finally {
      ended.give();
      await blocking;
    }
    await done;
    expect(seen.map((e) => e.position)).toEqual([appended.position]);
  });

  it('reading right after an append finds it, once an older transaction still running has ended', async () => {
    const start = await sql<{ head: bigint }[]>`select coalesce(max(position), 0) as head from events`;
    const blocker = connect(db.url, { max: 1 });
    pools.push(blocker);
    const holding = signal();
    const ended = signal();
    const blocking = blocker.begin(async (tx) => {
      await tx`select pg_current_xact_id()`;
      holding.give();
      await ended.given;
    });
    await holding.given;
    const store = createPostgresEventStore({ sql });
    const appended = await store.append('read-after-append', [newEvent()], 'no_stream');
    const read = store.readAll(BigInt(start[0]!.head), 10);
    await sleep(100);
    ended.give();
    await blocking;
    expect((await read).map((e) => e.position)).toEqual([appended.position]);
  });
});
