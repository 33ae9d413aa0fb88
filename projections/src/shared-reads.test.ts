import { HistoryWriter, openBench, perFile, prepare } from '@shiftcover/testing';
import { describe, expect, it } from 'vitest';
import { SharedReads } from './shared-reads';

const bench = perFile(openBench);

describe('reads shared between projectors', () => {
  it('read each full batch from the store once, and a short batch at the head again', async () => {
    const { service, store } = await prepare(bench.sql);
    const writer = new HistoryWriter(service);
    await writer.setUp();
    const storeReads: bigint[] = [];
    const shared = new SharedReads(
      {
        readAll: (after, limit) => {
          storeReads.push(after);
          return store.readAll(after, limit);
        },
      },
      2,
    );
    const all = await store.readAll(0n, 1000);
    const [first, second] = [all.slice(0, 4), all.slice(4, 8)];

    // Two projectors asking for the same full batches, together or one after the other.
    const together = await Promise.all([shared.readAll(0n, 4), shared.readAll(0n, 4)]);
    expect(together).toEqual([first, first]);
    expect(await shared.readAll(first.at(-1)!.position, 4)).toEqual(second);
    expect(await shared.readAll(first.at(-1)!.position, 4)).toEqual(second);
    expect(storeReads).toEqual([0n, first.at(-1)!.position]);

    // At the head the batch is short: the second projector reads it again and sees what came since.
    const head = all.at(-1)!.position;
    expect(await shared.readAll(head, 4)).toEqual([]);
    await writer.step({ kind: 'residence', shift: 0, who: 0, extra: 1 });
    const appended = await shared.readAll(head, 4);
    expect(appended.map((e) => e.type)).toContain('ResidenceCreated');
    expect(storeReads).toEqual([0n, first.at(-1)!.position, head, head]);
  });
});
