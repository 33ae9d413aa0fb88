import { PersonalDataVault } from '@shiftcover/eventstore';
import { connect } from '@shiftcover/platform';
import { dumpReadModels, HistoryWriter, openBench, perFile, prepare, until } from '@shiftcover/testing';
import { describe, expect, it } from 'vitest';
import { projections } from '.';
import { listParkedEvents } from './parking';
import { applyEvents, oneAtATime, type Projection } from './projection';
import { applyNextBatchTogether, install, readCheckpoint, readCheckpoints, rebuild } from './projector';
import { residencesProjection } from './read-models/residences';
import { usersProjection } from './read-models/users';
import { ProjectionRunner } from './runner';

const bench = perFile(openBench);

/** Every read-model index, its generation left out of its table's and its own name. */
async function indexesOfReadModels(): Promise<string[]> {
  const rows = await bench.sql<{ definition: string }[]>`
    select indexdef as definition from pg_indexes where tablename like 'rm\_%'`;
  return rows.map((row) => row.definition.replace(/_g\d+/g, '')).sort();
}

/** A fresh store holding the history writer's setup and one residence; its projector deps. */
async function oneResidenceWritten() {
  const { service, deps } = await prepare(bench.sql);
  const writer = new HistoryWriter(service);
  await writer.setUp();
  await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 1 });
  return deps;
}

describe('the projection runner', () => {
  it('follows new events as they are appended', async () => {
    const { service, deps } = await prepare(bench.sql);
    const runner = new ProjectionRunner(deps, [residencesProjection], { idleMs: 5_000 });
    await runner.start();
    const writer = new HistoryWriter(service);
    await writer.setUp();
    await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 1 });
    await until(async () => (await bench.sql`select count(*)::int as n from rm_residences`)[0]!.n === 1);
    await runner.stop();
  });

  it('rebuilds a projection whose code version changed, into fresh tables, and keeps following', async () => {
    const { service, deps } = await prepare(bench.sql);
    const writer = new HistoryWriter(service);
    await writer.setUp();
    await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 1 });
    const first = new ProjectionRunner(deps, [residencesProjection]);
    await first.start();
    await until(async () => (await readCheckpoint(bench.sql, 'residences'))!.position > 0n);
    await first.stop();

    const changed = { ...residencesProjection, version: residencesProjection.version + 1 };
    const second = new ProjectionRunner(deps, [changed], { idleMs: 100 });
    await second.start();
    await until(async () => (await readCheckpoint(bench.sql, 'residences'))!.version === changed.version);
    const checkpoint = (await readCheckpoint(bench.sql, 'residences'))!;
    expect(checkpoint.generation).toBe(2);
    await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 2 });
    await until(async () => (await bench.sql`select count(*)::int as n from rm_residences`)[0]!.n === 2);
    await second.stop();
  });

  it('moves the projections at the head of the log in two transactions per batch, those writers wait for first', async () => {
    const { service, deps } = await prepare(bench.sql);
    const runner = new ProjectionRunner(deps, projections, { idleMs: 5_000 });
    await runner.start();
    const writer = new HistoryWriter(service);
    await writer.setUp();
    await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 1 });
    const head = await deps.store.headPosition();
    await until(async () => (await readCheckpoints(bench.sql)).every((c) => c.position === head));
    await runner.stop();
    // now() is the time its transaction began: one value for a group's checkpoints is one commit.
    const checkpoints = await readCheckpoints(bench.sql);
    const awaited = new Set(projections.filter((p) => p.awaitedByWriters).map((p) => p.name));
    const began = (first: boolean) =>
      new Set(checkpoints.filter((c) => awaited.has(c.name) === first).map((c) => c.updatedAt.getTime()));
    expect(awaited).toEqual(new Set(['shifts', 'users', 'residences', 'credentials', 'system_config']));
    expect(began(true).size).toBe(1);
    expect(began(false).size).toBe(1);
    expect([...began(true)][0]).toBeLessThan([...began(false)][0]!);
  });

  it('commits and tells the read models writers wait for while the others are still applying', async () => {
    const deps = await oneResidenceWritten();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A read model no writer waits for, held in its transaction until the test lets it go.
    const applyBatch: Projection['applyBatch'] = async (tx, events, t) => {
      await released;
      await applyEvents(residencesProjection, tx, events, t);
    };
    const held: Projection = {
      ...residencesProjection,
      awaitedByWriters: false,
      applyBatch,
      apply: oneAtATime(applyBatch),
    };
    const pair = [held, usersProjection];
    for (const projection of pair) await install(bench.sql, projection);
    const head = await deps.store.headPosition();
    const told: [string[], bigint][] = [];
    const round = applyNextBatchTogether(deps, pair, 0n, undefined, (names, position) => {
      told.push([[...names], position]);
    });
    try {
      await until(async () => (await readCheckpoint(bench.sql, 'users'))!.position === head);
      expect(told).toEqual([[['users'], head]]);
      expect((await readCheckpoint(bench.sql, 'residences'))!.position).toBe(0n);
    } finally {
      release();
    }
    const outcome = await round;
    expect(told).toEqual([
      [['users'], head],
      [['residences'], head],
    ]);
    expect(outcome.advanced).toEqual(
      new Map([
        ['users', head],
        ['residences', head],
      ]),
    );
    expect(await bench.sql`select * from rm_residences`).toHaveLength(1);
  });

  it('gives the batch at the head of the log to every projection at once, not one after another', async () => {
    const deps = await oneResidenceWritten();
    // The first waits until the second has begun: one after the other, it would wait in vain.
    let secondBegun!: () => void;
    const begun = new Promise<void>((resolve) => {
      secondBegun = resolve;
    });
    const waiting = (projection: Projection): Projection => {
      const applyBatch: Projection['applyBatch'] = async (tx, events, t) => {
        await Promise.race([
          begun,
          new Promise((_, reject) => setTimeout(() => reject(new Error('applied one after another')), 3_000)),
        ]);
        await applyEvents(projection, tx, events, t);
      };
      return { ...projection, applyBatch, apply: oneAtATime(applyBatch) };
    };
    const starting = (projection: Projection): Projection => {
      const applyBatch: Projection['applyBatch'] = (tx, events, t) => {
        secondBegun();
        return applyEvents(projection, tx, events, t);
      };
      return { ...projection, applyBatch, apply: oneAtATime(applyBatch) };
    };
    const pair = [waiting(usersProjection), starting(residencesProjection)];
    for (const projection of pair) await install(bench.sql, projection);
    const head = await deps.store.headPosition();
    const outcome = await applyNextBatchTogether(deps, pair, 0n);
    expect(outcome.advanced).toEqual(
      new Map([
        ['users', head],
        ['residences', head],
      ]),
    );
    expect(await listParkedEvents(bench.sql)).toEqual([]);
    expect(await bench.sql`select * from rm_residences`).toHaveLength(1);
  });

  it('catches up batches holding personal data in parallel on a pool of fewer connections than read models', async () => {
    const { service, deps } = await prepare(bench.sql);
    const writer = new HistoryWriter(service);
    await writer.setUp();
    for (let extra = 1; extra <= 3; extra++) await writer.step({ kind: 'user', shift: 0, who: 0, extra });
    // Each read model's transaction holds one of the two connections while it opens the sealed
    // names: the keys are read on that transaction's connection, not on a third the pool lacks.
    const pool = connect(bench.db.url, { max: 2 });
    try {
      const narrow = { ...deps, sql: pool, vault: new PersonalDataVault(pool), batchSize: 4 };
      for (const projection of projections) await install(pool, projection);
      const head = await deps.store.headPosition();
      let position = 0n;
      while (position < head) {
        const outcome = await applyNextBatchTogether(narrow, projections, position);
        expect(outcome.advanced.size).toBe(projections.length);
        position = [...outcome.advanced.values()][0]!;
      }
    } finally {
      await pool.end();
    }
    const live = await dumpReadModels(bench.sql);
    expect(live.users!.length).toBeGreaterThan(3);
    expect(await listParkedEvents(bench.sql)).toEqual([]);
    for (const projection of projections) await rebuild(deps, projection);
    expect(await dumpReadModels(bench.sql)).toEqual(live);
  });

  it('lets a projection installed late catch up on its own while the others keep following', async () => {
    const { service, deps } = await prepare(bench.sql);
    const writer = new HistoryWriter(service);
    await writer.setUp();
    for (let extra = 1; extra <= 30; extra++)
      await writer.step({ kind: 'residence', shift: 0, who: 0, extra });
    const [late, ...rest] = projections;
    const first = new ProjectionRunner(deps, rest, { idleMs: 100 });
    await first.start();
    let head = await deps.store.headPosition();
    await until(async () => (await readCheckpoints(bench.sql)).every((c) => c.position === head));
    await first.stop();

    // A batch of one event makes the late one's catching up long enough to watch the others pass it.
    const runner = new ProjectionRunner({ ...deps, batchSize: 1 }, projections, { idleMs: 100 });
    await install(bench.sql, late!);
    await runner.start();
    await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 31 });
    head = await deps.store.headPosition();
    await until(async () => {
      const checkpoints = await readCheckpoints(bench.sql);
      return checkpoints.filter((c) => c.name !== late!.name).every((c) => c.position === head);
    });
    expect((await readCheckpoint(bench.sql, late!.name))!.position).toBeLessThan(head);
    await until(async () => (await readCheckpoint(bench.sql, late!.name))!.position === head, 60_000);
    await runner.stop();
    const live = await dumpReadModels(bench.sql);
    const liveIndexes = await indexesOfReadModels();
    for (const projection of projections) await rebuild(deps, projection);
    expect(await dumpReadModels(bench.sql)).toEqual(live);
    // The indexes a rebuild builds once its rows are in are those a first install makes.
    expect(await indexesOfReadModels()).toEqual(liveIndexes);
    expect(liveIndexes.some((index) => index.includes('audit_logs') && index.includes('user_id'))).toBe(true);
  });
});
