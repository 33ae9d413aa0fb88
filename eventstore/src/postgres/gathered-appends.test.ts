import { randomUUID } from 'node:crypto';
import { connect } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainVerifier } from '../chain';
import { newEvent } from '../contract';
import { WrongExpectedRevision } from '../port';
import { type AppendPart, GatheredAppends, type PartOutcome } from './gathered-appends';
import { createPostgresEventStore, migrateEventStore } from './postgres-event-store';

const part = (stream: string, events = 1): AppendPart => ({
  stream,
  expected: null,
  previousHash: '0'.repeat(64),
  events: Array.from({ length: events }, (_, i) => ({
    id: `${stream}-${i}`,
    type: 'Thing',
    data: {},
    metadata: {},
  })),
});

/** A stand-in for the statement: records what each call carried, answers when told to. */
function statements() {
  const calls: { appends: AppendPart[][]; answer(): void; fail(error: unknown): void }[] = [];
  let open = 0;
  let mostOpen = 0;
  const appendEach = (appends: AppendPart[][]) =>
    new Promise<PartOutcome[]>((resolve, reject) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      const settle = () => open--;
      calls.push({
        appends,
        answer: () => {
          settle();
          resolve(
            appends.flatMap((parts, append) =>
              parts.map((_, part) => ({
                append,
                part,
                outcome: 'appended' as const,
                stream_revision: 0n,
                last_position: BigInt(append),
              })),
            ),
          );
        },
        fail: (error) => {
          settle();
          reject(error);
        },
      });
    });
  return { calls, appendEach, mostOpen: () => mostOpen };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('appends gathered into statements', () => {
  it('sends an append at once while fewer than the limit are on their way, and gathers the rest in order', async () => {
    const { calls, appendEach, mostOpen } = statements();
    const gathered = new GatheredAppends(appendEach, 2, 100, 10_000);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((stream) => gathered.append([part(stream)]));
    await turn();
    expect(calls.map((call) => call.appends.map((parts) => parts[0]!.stream))).toEqual([['a'], ['b']]);
    calls[1]!.answer();
    await turn();
    expect(calls[2]!.appends.map((parts) => parts[0]!.stream)).toEqual(['c', 'd', 'e']);
    calls[0]!.answer();
    calls[2]!.answer();
    const outcomes = await Promise.all(answers);
    // Each append is answered with its own rows, whatever its place in the statement.
    expect(outcomes.map((rows) => rows.map((row) => row.last_position))).toEqual([
      [0n],
      [0n],
      [0n],
      [1n],
      [2n],
    ]);
    expect(mostOpen()).toBe(2);
  });

  it('puts no more appends or events in one statement than its limits, and a larger append alone', async () => {
    const { calls, appendEach } = statements();
    const gathered = new GatheredAppends(appendEach, 1, 3, 10);
    const answers = [
      gathered.append([part('first')]),
      ...['a', 'b', 'c', 'd'].map((stream) => gathered.append([part(stream)])),
      gathered.append([part('big', 12)]),
      gathered.append([part('x', 6), part('y', 3)]),
      gathered.append([part('z', 2)]),
    ];
    for (let i = 0; i < 6; i++) {
      await turn();
      calls.at(-1)!.answer();
    }
    await Promise.all(answers);
    expect(calls.map((call) => call.appends.map((parts) => parts.map((p) => p.stream).join('+')))).toEqual([
      ['first'],
      ['a', 'b', 'c'],
      ['d'],
      ['big'],
      ['x+y'],
      ['z'],
    ]);
  });

  it('makes each append of a failed statement again on its own, so only the one at fault fails', async () => {
    const { calls, appendEach } = statements();
    const gathered = new GatheredAppends(appendEach, 1, 100, 10_000);
    const answers = ['first', 'good', 'bad', 'also-good'].map((stream) =>
      gathered.append([part(stream)]).then(
        () => 'appended',
        (error: Error) => error.message,
      ),
    );
    await turn();
    calls[0]!.answer();
    await turn();
    expect(calls[1]!.appends).toHaveLength(3);
    calls[1]!.fail(new Error('a statement of three failed'));
    await turn();
    for (const call of calls.slice(2)) {
      if (call.appends[0]![0]!.stream === 'bad') call.fail(new Error('bad alone failed'));
      else call.answer();
    }
    expect(await Promise.all(answers)).toEqual(['appended', 'appended', 'bad alone failed', 'appended']);
  });
});

describe('the PostgreSQL store gathering concurrent appends', () => {
  let db: TestDatabase;
  let sql: Sql;
  let statementsRun = 0;
  /** The pool, counting the statements of appends that go through it. */
  let counted: Sql;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = connect(db.url, { max: 4 });
    await migrateEventStore(sql);
    counted = new Proxy(sql, {
      apply(target, self, args: unknown[]) {
        const strings = args[0] as readonly string[] | undefined;
        if (Array.isArray(strings) && strings.join('').includes('eventstore_append')) statementsRun++;
        return Reflect.apply(target, self, args);
      },
    });
  });

  afterAll(async () => {
    await sql.end();
    await db.drop();
  });

  it('appends many commands in few statements, each checked on its own: a conflict fails only its append', async () => {
    const store = createPostgresEventStore({ sql: counted });
    await store.append('contended', [newEvent('First')], 'no_stream');
    statementsRun = 0;
    const own = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? store.appendTogether!([
            { streamId: `shift-${i}`, events: [newEvent('Claimed')], expected: 'no_stream' },
            {
              streamId: `schedule-${i}`,
              events: [newEvent('Reserved'), newEvent('Noted')],
              expected: 'no_stream',
            },
          ])
        : store.append(`own-${i}`, [newEvent('Thing', { i })], 'no_stream'),
    );
    // Two commands decided on the same revision of one stream: one goes through, one conflicts.
    const contended = [0, 1].map((i) =>
      store.append('contended', [newEvent('Second', { i })], 0n).then(
        () => 'appended',
        (error: unknown) => (error instanceof WrongExpectedRevision ? 'conflict' : String(error)),
      ),
    );
    await Promise.all(own);
    expect((await Promise.all(contended)).sort()).toEqual(['appended', 'conflict']);
    // Without gathering each of the 32 would be a statement of its own.
    expect(statementsRun).toBeLessThan(10);

    const all = await store.readAll(0n, 1000);
    expect(all).toHaveLength(1 + 10 * 3 + 20 + 1);
    // Positions rise in the log's order and every stream's revisions follow them.
    const positions = all.map((event) => event.position);
    expect([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(positions);
    expect(new Set(positions).size).toBe(positions.length);
    const verifier = new ChainVerifier(undefined);
    for (const event of all) verifier.add(event);
    expect(verifier.breaks()).toEqual([]);
    const schedule = await store.readStream('schedule-3');
    expect(schedule.events.map((event) => [event.type, event.revision])).toEqual([
      ['Reserved', 0n],
      ['Noted', 1n],
    ]);
    expect((await store.readStream('contended')).revision).toBe(1n);
  });

  it('answers each append of one statement on its own, a repeat of one made earlier in it as a duplicate', async () => {
    const stored = (stream: string, events: number, expected: string | null = null): AppendPart => ({
      stream,
      expected,
      previousHash: '0'.repeat(64),
      events: Array.from({ length: events }, () => ({
        id: randomUUID(),
        type: 'Thing',
        data: {},
        metadata: {},
      })),
    });
    const a = stored('one-a', 2);
    const moved = stored('one-a', 1, '1');
    const stale = stored('one-c', 1, '7');
    const outcomes = await sql<PartOutcome[]>`
      select * from eventstore_append_each(${sql.json([
        [a],
        [stored('one-b', 1), moved],
        // The first append again, word for word: a repeat of one this statement has just made.
        [a],
        // A new stream, then one at another revision than expected: neither part stays.
        [stored('one-d', 1), stale],
        [stored('one-e', 3)],
      ] as never)}) order by append, part`;
    const first = outcomes[0]!.last_position! - 1n;
    expect(outcomes.map((o) => [o.append, o.part, o.outcome, o.stream_revision, o.last_position])).toEqual([
      [0, 0, 'appended', 1n, first + 1n],
      [1, 0, 'appended', 0n, first + 2n],
      [1, 1, 'appended', 2n, first + 3n],
      [2, 0, 'duplicate', 1n, first + 1n],
      [3, 1, 'conflict', null, null],
      [4, 0, 'appended', 2n, first + 6n],
    ]);
    const written = await sql<{ position: bigint; stream_id: string; revision: bigint }[]>`
      select position, stream_id, revision from events where stream_id like 'one-%' order by position`;
    expect(written.map((e) => [e.position - first, e.stream_id, e.revision])).toEqual([
      [0n, 'one-a', 0n],
      [1n, 'one-a', 1n],
      [2n, 'one-b', 0n],
      [3n, 'one-a', 2n],
      [4n, 'one-e', 0n],
      [5n, 'one-e', 1n],
      [6n, 'one-e', 2n],
    ]);
    const streams = await sql<{ stream_id: string; revision: bigint }[]>`
      select stream_id, revision from event_streams where stream_id like 'one-%' order by stream_id`;
    expect(streams.map((s) => [s.stream_id, s.revision])).toEqual([
      ['one-a', 2n],
      ['one-b', 0n],
      ['one-e', 2n],
    ]);
  });

  it('keeps the others of a statement that failed as a whole (an event id stored before, in another stream)', async () => {
    const store = createPostgresEventStore({ sql: counted });
    const taken = newEvent('Taken');
    await store.append('first-owner', [taken], 'no_stream');
    statementsRun = 0;
    // The first two go at once; the rest wait and go together, the one reusing the id among them.
    const results = await Promise.all([
      store.append('lead-1', [newEvent()], 'no_stream'),
      store.append('lead-2', [newEvent()], 'no_stream'),
      store.append('before-it', [newEvent()], 'no_stream'),
      store.append('reuses-the-id', [taken], 'no_stream'),
      store.append('after-it', [newEvent()], 'no_stream'),
    ]);
    // The reused id is answered as the stored event it names, as it was before appends gathered.
    const [stored] = (await store.readStream('first-owner')).events;
    expect(results[3]).toEqual({ nextRevision: 0n, position: stored!.position, alreadyStored: true });
    for (const stream of ['lead-1', 'lead-2', 'before-it', 'after-it']) {
      expect((await store.readStream(stream)).events).toHaveLength(1);
    }
    expect((await store.readStream('reuses-the-id')).events).toHaveLength(0);
    // Two at once, three together that failed, then each of the three on its own.
    expect(statementsRun).toBe(6);
  });
});
