import { HistoryWriter, openBench, perFile, prepare, until } from '@shiftcover/testing';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from './projector';
import { residencesProjection } from './read-models/residences';
import { ProjectionRunner } from './runner';

const bench = perFile(openBench);

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
});
