import { connect } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appendAnnouncer, NOTIFY_CHANNEL, readableDoorbell } from './notifications';
import { migrateEventStore } from './postgres-event-store';

let db: TestDatabase;
let sql: Sql;
let listener: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 2 });
  listener = connect(db.url, { max: 1 });
  await migrateEventStore(sql);
});

afterAll(async () => {
  await Promise.all([sql.end(), listener.end()]);
  await db.drop();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

it('tells the first append at once and a burst by a few spaced notifications, the last after the burst', async () => {
  const heard: number[] = [];
  const { unlisten } = await listener.listen(NOTIFY_CHANNEL, () => heard.push(performance.now()));
  try {
    // Long enough that a notification's own trip on a busy machine is well within it.
    const spacingMs = 1_000;
    const announcer = appendAnnouncer(sql, spacingMs);
    const started = performance.now();
    announcer.announce();
    await expect.poll(() => heard.length).toBe(1);
    // The first is not held for the spacing.
    expect(heard[0]! - started).toBeLessThan(spacingMs);

    // 300 appends told over a second and a half or more: at most one notification per spacing, and
    // one after the last. Counted, not timed one by one: on a busy machine arrivals bunch.
    let lastAnnounced = 0;
    for (let i = 0; i < 300; i++) {
      announcer.announce();
      lastAnnounced = performance.now();
      await sleep(5);
    }
    await announcer.settled();
    await expect.poll(() => heard.at(-1)! >= lastAnnounced).toBe(true);
    const burst = heard.slice(1);
    const span = (lastAnnounced - started) / spacingMs;
    expect(burst.length).toBeLessThanOrEqual(Math.ceil(span) + 1);
    expect(burst.length).toBeGreaterThanOrEqual(2);

    // Quiet again: the next append is told at once.
    await sleep(spacingMs * 2);
    const again = performance.now();
    const before = heard.length;
    announcer.announce();
    await expect.poll(() => heard.length).toBe(before + 1);
    expect(heard.at(-1)! - again).toBeLessThan(spacingMs);
  } finally {
    await unlisten();
  }
});

it('keeps looking for the followers that come after one left while notifications were arriving', async () => {
  const doorbell = readableDoorbell(sql, 0);
  // Notifications arrive all the time, as under a stream of appends, while followers come and go:
  // one can ring for a follower that has just left, before its LISTEN has ended.
  let flooding = true;
  const flood = Promise.all(
    [0, 1].map(async () => {
      while (flooding) await sql`select pg_notify(${NOTIFY_CHANNEL}, '')`;
    }),
  );
  try {
    for (let i = 0; i < 300; i++) await doorbell.watch(() => {})();
    await sleep(50);
  } finally {
    flooding = false;
    await flood;
  }
  // A follower after all that is rung for what is announced.
  let rung = 0;
  const stop = doorbell.watch(() => {
    rung += 1;
  });
  try {
    await expect
      .poll(
        async () => {
          await sql`select pg_notify(${NOTIFY_CHANNEL}, '')`;
          return rung;
        },
        { timeout: 5_000, interval: 50 },
      )
      .toBeGreaterThan(0);
  } finally {
    await stop();
  }
});
