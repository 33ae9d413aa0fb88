import { connect } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appendAnnouncer, NOTIFY_CHANNEL } from './notifications';

let db: TestDatabase;
let sql: Sql;
let listener: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 2 });
  listener = connect(db.url, { max: 1 });
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
    const spacingMs = 200;
    const announcer = appendAnnouncer(sql, spacingMs);
    const started = performance.now();
    announcer.announce();
    await expect.poll(() => heard.length).toBe(1);
    // The first is not held for the spacing.
    expect(heard[0]! - started).toBeLessThan(spacingMs);

    // 100 appends told over half a second or more: at most one notification per spacing, and one
    // after the last (arrivals may bunch a little on their way, sends do not).
    let lastAnnounced = 0;
    for (let i = 0; i < 100; i++) {
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
    for (let i = 1; i < heard.length; i++) expect(heard[i]! - heard[i - 1]!).toBeGreaterThan(spacingMs / 2);

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
