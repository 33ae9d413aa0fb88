import { migrate, postgresAt } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import { CHECKPOINT_CHANNEL, checkpointNotice, projectionMigrations } from '@shiftcover/projections';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Positions } from './consistency';

let db: TestDatabase;
let reader: Sql;
let writer: Sql;
let queries = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  // The reader's client counts every statement it sends; the writer plays the projector elsewhere.
  reader = postgresAt(db.url, {
    max: 2,
    onnotice: () => {},
    debug: () => {
      queries += 1;
    },
  });
  writer = postgresAt(db.url, { max: 1, onnotice: () => {} });
  await migrate(writer, 'projections', projectionMigrations);
  await writer`insert into projection_checkpoints (name, generation, version, position)
    values ('shifts', 1, 1, 0), ('users', 1, 1, 0)`;
});
afterAll(async () => {
  await reader?.end();
  await writer?.end();
  await db?.drop();
});
beforeEach(async () => {
  await writer`update projection_checkpoints set position = 0`;
});

const advance = (name: string, position: number) =>
  writer`update projection_checkpoints set position = ${position} where name = ${name}`;

describe('waiting for a position (x-min-position)', () => {
  it('returns at once when the read models are already there: after one look, without asking again', async () => {
    const positions = new Positions(reader);
    await positions.waitFor(0n, ['shifts', 'users']);
    queries = 0;
    await positions.waitFor(0n, ['shifts', 'users']);
    expect(queries).toBe(0);
    // A wait beyond what it has seen looks again.
    await advance('shifts', 3);
    await advance('users', 3);
    await positions.waitFor(3n, ['shifts', 'users']);
    expect(queries).toBeLessThanOrEqual(1);
    await positions.close();
  });

  it('wakes on the database’s notice when a projector elsewhere advances, with one look in all', async () => {
    const positions = new Positions(reader);
    await positions.waitFor(0n, ['shifts']);
    queries = 0;
    const waiting = positions.waitFor(7n, ['shifts', 'users']);
    let done = false;
    void waiting.then(() => {
      done = true;
    });
    await advance('shifts', 7);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    await advance('users', 9);
    await waiting;
    expect(queries).toBe(1);
    await positions.close();
  });

  it('hurries the projector in this process when it has to wait, and only then', async () => {
    let hurried = 0;
    const positions = new Positions(reader, () => {
      hurried += 1;
    });
    await positions.waitFor(0n, ['shifts']);
    hurried = 0;
    await positions.waitFor(0n, ['shifts']);
    expect(hurried).toBe(0);
    const waiting = positions.waitFor(5n, ['shifts']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hurried).toBe(1);
    positions.advanced('shifts', 5n);
    await waiting;
    await positions.waitFor(5n, ['shifts']);
    expect(hurried).toBe(1);
    await positions.close();
  });

  it('wakes on the projector in this process without asking the database again', async () => {
    const positions = new Positions(reader);
    await positions.waitFor(0n, ['shifts']);
    queries = 0;
    const waiting = positions.waitFor(3n, ['shifts']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    positions.advanced('users', 3n);
    positions.advanced('shifts', 3n);
    await waiting;
    expect(queries).toBe(1);
    await positions.close();
  });

  it('ends on the advance it hears without waiting for its look, needing to hear only what its marks lack', async () => {
    const positions = new Positions(reader);
    await positions.marks(['shifts', 'users']);
    positions.advanced('users', 9n);
    // The look cannot answer while another transaction holds the checkpoints' table.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = writer.begin(async (tx) => {
      await tx`lock table projection_checkpoints in access exclusive mode`;
      locked();
      await held;
    });
    await lockTaken;
    try {
      const waiting = positions.waitFor(9n, ['shifts', 'users']);
      let done = false;
      void waiting.then(() => {
        done = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(done).toBe(false);
      // `users` stands at 9 in the marks already: hearing `shifts` is enough.
      positions.advanced('shifts', 9n);
      await waiting;
    } finally {
      release();
      await holding;
    }
    await positions.close();
  });

  it('answers 503 after 5 s when the read models never get there, having looked once', async () => {
    const positions = new Positions(reader);
    await positions.waitFor(0n, ['shifts']);
    queries = 0;
    await expect(positions.waitFor(1_000n, ['shifts'])).rejects.toMatchObject({ statusCode: 503 });
    expect(queries).toBe(1);
    await positions.close();
  });
});

describe('where the read models stand (the marks a cached answer is kept under)', () => {
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 5_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('never came');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('stand, once a wait returns, at least where the wait found the read models, before any notice', async () => {
    const positions = new Positions(reader);
    expect((await positions.marks(['shifts', 'users'])).key).toBe('1.0,1.0');
    // The checkpoints move with no notice yet: as when a wait's look sees a projector's commit
    // before its notice, or this process's own projector, has been heard.
    await writer.begin(async (tx) => {
      await tx`alter table projection_checkpoints disable trigger checkpoint_advanced`;
      await tx`update projection_checkpoints set position = 5`;
      await tx`alter table projection_checkpoints enable trigger checkpoint_advanced`;
    });
    await positions.waitFor(5n, ['shifts']);
    // A cached answer is looked up under these marks: never under ones from before the write waited for.
    expect((await positions.marks(['shifts', 'users'])).key).toBe('1.5,1.0');
    await positions.close();
  });

  it('looks once, then follows advances here and elsewhere, and rebuilds, without asking again', async () => {
    const positions = new Positions(reader);
    queries = 0;
    const first = await positions.marks(['shifts', 'users']);
    expect(first.key).toBe('1.0,1.0');
    const looked = queries;
    positions.advanced('shifts', 4n);
    expect((await positions.marks(['shifts', 'users'])).key).toBe('1.4,1.0');
    expect(await positions.everywhere()).toBe(0n);
    await advance('users', 6);
    await until(async () => (await positions.marks(['users'])).key === '1.6');
    expect(await positions.everywhere()).toBe(4n);
    // A rebuild elsewhere swaps in the next generation.
    await writer`update projection_checkpoints set generation = 2, position = 6 where name = 'users'`;
    await until(async () => (await positions.marks(['users'])).key === '2.6');
    // An advance heard late, or a position from before, never moves a read model back.
    positions.advanced('shifts', 2n);
    expect((await positions.marks(['shifts', 'users'])).key).toBe('1.4,2.6');
    expect(queries).toBe(looked);
    await positions.close();
    await writer`update projection_checkpoints set generation = 1 where name = 'users'`;
  });
});

describe('the checkpoints’ notices', () => {
  /** The notices heard on the channel while `work` runs, and a moment after. */
  async function heardDuring(work: () => Promise<unknown>): Promise<string[]> {
    const heard: string[] = [];
    const listener = postgresAt(db.url, { max: 1, onnotice: () => {} });
    try {
      await listener.listen(CHECKPOINT_CHANNEL, (payload) => void heard.push(payload));
      await work();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return heard;
    } finally {
      await listener.end();
    }
  }

  it('are one per statement, a line per checkpoint it moved, and a reader hears every line', async () => {
    const positions = new Positions(reader);
    await positions.waitFor(0n, ['shifts', 'users']);
    const waiting = positions.waitFor(9n, ['shifts', 'users']);
    const heard = await heardDuring(() => writer`update projection_checkpoints set position = 9`);
    expect(heard).toEqual(['shifts 9 1\nusers 9 1']);
    await waiting;
    expect((await positions.marks(['shifts', 'users'])).key).toBe('1.9,1.9');
    await positions.close();
  });

  it('are split into one per checkpoint when together they would be too long for one', async () => {
    // 120 lines of about 80 bytes: more than one notice may hold.
    const names = Array.from({ length: 120 }, (_, i) =>
      `read-model-${String(i).padStart(3, '0')}`.padEnd(74, '-'),
    );
    try {
      const heard = await heardDuring(
        () => writer`insert into projection_checkpoints (name, generation, version, position)
          select unnest(${names}::text[]), 1, 1, 5`,
      );
      expect(heard).toEqual(names.map((name) => `${name} 5 1`));
    } finally {
      await writer`delete from projection_checkpoints where name = any(${names})`;
    }
  });

  it('are read line by line, leaving out a line that names no position', () => {
    expect(checkpointNotice('shifts 12 2\nusers 7\nbroken\naudit_log x 1')).toEqual([
      { name: 'shifts', position: 12n, generation: 2 },
      { name: 'users', position: 7n },
    ]);
  });
});
