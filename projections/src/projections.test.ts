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
import { describe, expect, it } from 'vitest';
import { projections } from './index';
import { applyEvents, oneAtATime, type Projection } from './projection';
import { applyNextBatch, install, rebuild } from './projector';

const bench = perFile(openBench);

/** A projection that dies at the n-th event it is given, as a crash mid-batch would. */
function crashingAt(projection: Projection, n: number): Projection {
  let seen = 0;
  const applyBatch: Projection['applyBatch'] = async (tx, events, t) => {
    const crashAt = n - seen - 1;
    seen += events.length;
    if (crashAt < 0 || crashAt >= events.length) return applyEvents(projection, tx, events, t);
    await applyEvents(projection, tx, events.slice(0, crashAt), t);
    // The connection dropping mid-batch: a failure of the infrastructure, not of the event.
    throw Object.assign(new Error('projector killed'), { code: 'CONNECTION_DESTROYED' });
  };
  return { ...projection, applyBatch, apply: oneAtATime(applyBatch) };
}

/** The projection without its batch folding: every event applied on its own, in its own statements. */
const oneEventAtATime = (projection: Projection): Projection => ({ ...projection, applyBatch: undefined });

describe('read models', () => {
  it('built batch by batch, with crashes mid-batch, equal a rebuild from scratch', async () => {
    let kills = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(historyStep, { minLength: 20, maxLength: 80, size: 'max' }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 1, max: 60 })), {
          minLength: 3,
          maxLength: 6,
        }),
        async (steps, crashes) => {
          const { service, deps } = await prepare(bench.sql);
          const writer = new HistoryWriter(service);
          await writer.setUp();
          for (const projection of projections) await install(bench.sql, projection);
          let crash = 0;
          for (const [i, step] of steps.entries()) {
            await writer.step(step);
            if (i % 7 !== 0) continue;
            const [batchSize, at] = crashes[crash++ % crashes.length]!;
            // Within the batch's size, so that every full batch dies mid-way, whatever the draw.
            const crashAt = 1 + ((at - 1) % batchSize);
            for (const projection of projections) {
              await applyNextBatch({ ...deps, batchSize }, crashingAt(projection, crashAt)).catch(
                (error: Error) => {
                  if (error.message !== 'projector killed') throw error;
                  kills += 1;
                },
              );
              await applyNextBatch({ ...deps, batchSize }, projection);
            }
          }
          await catchUp(deps, projections);
          const incremental = await dumpReadModels(bench.sql);
          for (const projection of projections) await rebuild(deps, projection);
          expect(await dumpReadModels(bench.sql)).toEqual(incremental);
          expect(incremental.audit_logs!.length).toBeGreaterThan(0);
          // Each person's kept count of unread notifications is their unread rows, counted.
          const kept = await bench.sql`
            select user_id, unread from rm_notification_unread where unread <> 0 order by user_id`;
          const counted = await bench.sql`
            select user_id, count(*)::int as unread from rm_notifications where not read
            group by user_id order by user_id`;
          expect([...kept]).toEqual([...counted]);
        },
      ),
      { numRuns: 8 },
    );
    expect(kills).toBeGreaterThanOrEqual(20);
  });

  it('folded a batch at a time in memory equal applied one event at a time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(historyStep, { minLength: 20, maxLength: 80, size: 'max' }),
        fc.integer({ min: 1, max: 40 }),
        async (steps, batchSize) => {
          const { service, deps } = await prepare(bench.sql);
          const writer = new HistoryWriter(service);
          await writer.setUp();
          for (const step of steps) await writer.step(step);
          const single = projections.map(oneEventAtATime);
          for (const projection of single) await install(bench.sql, projection);
          await catchUp({ ...deps, batchSize }, single);
          const oneByOne = await dumpReadModels(bench.sql);
          for (const projection of projections) await rebuild(deps, projection);
          expect(await dumpReadModels(bench.sql)).toEqual(oneByOne);
          expect(oneByOne.shifts!.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 8 },
    );
  });
});
