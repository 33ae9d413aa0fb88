import { randomUUID } from 'node:crypto';
import type { ChangeNotice } from '@shiftcover/domain';
import { LiveFeed, LiveHub } from '@shiftcover/read-api';
import { aPerson, openBench, perFile, prepare } from '@shiftcover/testing';
import { describe, expect, it } from 'vitest';

const bench = perFile(openBench);

describe('the live feed', () => {
  it('looks again for the news it was woken for while a pass was under way', async () => {
    const { store, service } = await prepare(bench.sql);
    await service.users.register(
      aPerson({ role: 'staff', superAdmin: false }),
      { actor: { kind: 'system', name: 'test' }, now: new Date() },
      { commandId: randomUUID() },
    );
    const head = await store.headPosition();
    const notices: ChangeNotice[] = [];
    const hub = new LiveHub();
    hub.add({
      principal: { userId: 'admin-1', role: 'admin', superAdmin: true },
      session: 'session-1',
      send: (notice) => notices.push(notice),
      close: () => {},
    });
    // The first pass looks before the read models report the registration; the wake that brings
    // the news comes while it is still looking. No timer runs here (the feed is not started).
    let report!: (position: bigint) => void;
    const looks = [new Promise<bigint>((resolve) => (report = resolve)), Promise.resolve(head)];
    const feed = new LiveFeed(store, () => looks.shift() ?? Promise.resolve(head), hub);
    const first = feed.wake();
    await feed.wake();
    report(0n);
    await first;
    expect(notices.flatMap((notice) => notice.views)).toContain('users');
  });
});
