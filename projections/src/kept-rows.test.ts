import {
  catchUp,
  dumpReadModels,
  HistoryWriter,
  historyStep,
  openBench,
  perFile,
  prepare,
} from '@shiftcover/testing';
import fc from 'fast-check';
import type { TransactionSql } from 'postgres';
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from './checkpoints';
import { projections } from './index';
import { KeptRows, rowsByKey } from './kept-rows';
import { physicalTable } from './projection';
import {
  applyNextBatchTogether,
  install,
  type ProjectorDeps,
  projectionConsumer,
  readCheckpoint,
  readCheckpointsOf,
  rebuild,
} from './projector';
import { shiftsProjection } from './read-models/shifts';
import { deleteRows, insertRows, upsertRows } from './rows';

const bench = perFile(openBench);

/** A round of the runner at the head of the log, with its kept rows: every projection at once. */
async function headRound(deps: ProjectorDeps, kept: KeptRows) {
  const checkpoints = await readCheckpointsOf(
    deps.sql,
    projections.map((projection) => projection.name),
  );
  const behindMost = [...checkpoints.values()].reduce(
    (min, checkpoint) => (checkpoint.position < min ? checkpoint.position : min),
    BigInt(Number.MAX_SAFE_INTEGER),
  );
  await applyNextBatchTogether({ ...deps, keptRows: kept }, projections, behindMost);
}

/** A fresh store holding the history writer's setup, every read model installed, and no rows kept. */
async function readModelsSetUp() {
  const { service, deps, store } = await prepare(bench.sql);
  const writer = new HistoryWriter(service);
  await writer.setUp();
  for (const projection of projections) await install(bench.sql, projection);
  return { deps, store, writer, kept: new KeptRows() };
}

describe('read-model rows kept between rounds at the head of the log', () => {
  it('give the tables a rebuild gives, whatever other projectors and rebuilds write between the rounds', async () => {
    let served = 0;
    let others = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(historyStep, { minLength: 20, maxLength: 80, size: 'max' }),
        // After each step: a round with the kept rows, another projector's batches (a second
        // process's, without them) for every read model, or a rebuild of one read model.
        fc.array(fc.constantFrom('round', 'round', 'round', 'round', 'other projector', 'rebuild'), {
          minLength: 5,
          maxLength: 20,
        }),
        async (steps, after) => {
          const { deps, writer, kept } = await readModelsSetUp();
          for (const [i, step] of steps.entries()) {
            await writer.step(step);
            const before = kept.served;
            switch (after[i % after.length]) {
              case 'round':
                await headRound(deps, kept);
                break;
              case 'other projector':
                await catchUp({ ...deps, batchSize: 1 + (i % 3) }, projections);
                others += 1;
                break;
              case 'rebuild':
                await rebuild(deps, projections[i % projections.length]!);
                others += 1;
                break;
            }
            served += kept.served - before;
          }
          await catchUp(deps, projections);
          const live = await dumpReadModels(bench.sql);
          for (const projection of projections) await rebuild(deps, projection);
          expect(await dumpReadModels(bench.sql)).toEqual(live);
          expect(live.shifts!.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 8, endOnFailure: true },
    );
    // The rounds did find rows in memory, and other writers came between them.
    expect(served).toBeGreaterThan(10);
    expect(others).toBeGreaterThan(10);
  });

  it('are read again once another writer has updated the checkpoint row, as every writer does', async () => {
    const { deps, writer, kept } = await readModelsSetUp();
    await headRound(deps, kept);
    const shifts = physicalTable('shifts', 1);
    const locations = async () =>
      (await bench.sql<{ location: string }[]>`select location from rm_shifts order by location`).map(
        (row) => row.location,
      );

    // A change that leaves the checkpoint row as it was goes unseen: the claim's round writes back
    // the row it kept, which is why every writer of a read model's tables updates its checkpoint row.
    await bench.sql`update ${bench.sql(shifts)} set location = 'Changed unseen'`;
    await writer.step({ kind: 'claim', shift: 0, who: 0, extra: 0 });
    const served = kept.served;
    await headRound(deps, kept);
    expect(kept.served).toBeGreaterThan(served);
    const unseen = await locations();
    expect(unseen.filter((location) => location !== 'Changed unseen')).toHaveLength(1);

    // Counted as a write, the same kind of change is read again by the next round.
    await bench.sql.begin(async (tx) => {
      await tx`update ${tx(shifts)} set location = 'Changed and counted'`;
      await tx`update projection_checkpoints set updated_at = updated_at where name = 'shifts'`;
    });
    await writer.step({ kind: 'approve', shift: 0, who: 0, extra: 0 });
    await headRound(deps, kept);
    expect(await locations()).toEqual(unseen.map(() => 'Changed and counted'));
    expect(await bench.sql`select id from rm_shifts where status = 'approved'`).toHaveLength(1);
  });

  it('are stale for the projector once a parked event is retried into the tables', async () => {
    const { deps, store } = await readModelsSetUp();
    await catchUp(deps, [shiftsProjection]);
    const before = (await readCheckpoint(bench.sql, 'shifts'))!;
    const [event] = await store.readAll(0n, 1);
    await projectionConsumer(deps, shiftsProjection).handle(event!);
    const after = (await readCheckpoint(bench.sql, 'shifts'))!;
    expect(after.writes).toBe(before.writes + 1n);
    expect(after.position).toBe(before.position);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it('hold a row as PostgreSQL does, and forget one written without a column or with a value read back as another', async () => {
    await bench.sql`drop table if exists rm_kept_test_g1`;
    await bench.sql`create table rm_kept_test_g1 (id text primary key, note text, kind text not null default 'plain', at timestamptz)`;
    const kept = new KeptRows();
    const checkpoint = { name: 'kept_test', generation: 1, writes: 7n } as Checkpoint;
    const round = async <T>(work: (tx: TransactionSql) => Promise<T>) => {
      let result: T | undefined;
      await bench.sql.begin(async (tx) => {
        kept.begin(tx, [{ name: 'kept_test', checkpoint, tables: ['rm_kept_test_g1'] }]);
        result = await work(tx);
        kept.committed(tx, new Map([['kept_test', 7n]]));
      });
      return result as T;
    };
    const byId = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.map((row) => [row.id, row]));

    await round(async (tx) => {
      expect(await rowsByKey(tx, 'rm_kept_test_g1', 'id', ['a', 'b', 'c', 'd'])).toEqual([]);
      await insertRows(tx, 'rm_kept_test_g1', [
        { id: 'a', note: undefined, kind: 'full', at: '2026-11-30T08:00:00.000Z' },
      ]);
      // Without the kind column: PostgreSQL gives it its default, which the round does not know.
      await upsertRows(tx, 'rm_kept_test_g1', 'id', [{ id: 'b', note: 'no kind' }]);
      await insertRows(tx, 'rm_kept_test_g1', [{ id: 'c', note: 'gone soon', kind: 'full', at: null }]);
      // A number in a text column: read back, it is a string.
      await insertRows(tx, 'rm_kept_test_g1', [{ id: 'd', note: 5, kind: 'full', at: null }]);
      await deleteRows(tx, 'rm_kept_test_g1', 'id', ['c']);
    });
    const served = kept.served;
    const rows = await round((tx) =>
      rowsByKey<Record<string, unknown>>(tx, 'rm_kept_test_g1', 'id', ['a', 'b', 'c', 'd']),
    );
    expect(byId(rows)).toEqual({
      a: { id: 'a', note: null, kind: 'full', at: '2026-11-30T08:00:00.000Z' },
      b: { id: 'b', note: 'no kind', kind: 'plain', at: null },
      d: { id: 'd', note: '5', kind: 'full', at: null },
    });
    // a and c (known to have no row) from memory; b and d read again.
    expect(kept.served - served).toBe(2);
    // What was read equals the table, a's time kept as the text it was written with.
    const read = await bench.sql<Record<string, unknown>[]>`select * from rm_kept_test_g1`;
    expect(byId([...read])).toEqual(
      byId(rows.map((row) => (row.id === 'a' ? { ...row, at: new Date(row.at as string) } : row))),
    );
  });
});
