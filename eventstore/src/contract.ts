import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainVerifier } from './chain';
import { type EventStore, type NewEvent, type RecordedEvent, WrongExpectedRevision } from './port';

export interface StoreUnderTest {
  store: EventStore;
  dispose(): Promise<void>;
}

export const newEvent = (type = 'Thing', data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: {
    commandId: randomUUID(),
    correlationId: 'correlation-1',
    causationId: 'causation-1',
    actorId: 'user-1',
    actorRole: 'admin',
    schemaVersion: 1,
  },
});

/** Collects what a subscription delivers until `count` events have arrived. */
export function collect(store: EventStore, after: bigint, count: number, timeoutMs = 10_000) {
  const seen: RecordedEvent[] = [];
  let resolve!: () => void;
  const enough = new Promise<void>((r) => {
    resolve = r;
  });
  const subscription = store.subscribeToAll(after, async (event) => {
    seen.push(event);
    if (seen.length >= count) resolve();
  });
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`only ${seen.length} of ${count} events arrived`)), timeoutMs).unref(),
  );
  return {
    seen,
    done: Promise.race([enough, timeout]).finally(() => subscription.stop()),
  };
}

/** The port's semantics, once, for every adapter. */
export function eventStoreContract(name: string, open: () => Promise<StoreUnderTest>) {
  describe(`${name} event store`, () => {
    let subject: StoreUnderTest;
    let store: EventStore;
    const stream = () => `contract-${randomUUID()}`;

    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(() => subject.dispose());

    it('appends to a new stream and reads it back in order, revisions from 0', async () => {
      const id = stream();
      const events = [newEvent('A', { n: 1 }), newEvent('B', { n: 2 })];
      const result = await store.append(id, events, 'no_stream');
      expect(result.nextRevision).toBe(1n);
      const read = await store.readStream(id);
      expect(read.revision).toBe(1n);
      expect(read.events.map((e) => [e.type, e.data, e.revision])).toEqual([
        ['A', { n: 1 }, 0n],
        ['B', { n: 2 }, 1n],
      ]);
      expect(read.events[1]!.position).toBe(result.position);
      expect(read.events[0]!.recordedAt).toBeInstanceOf(Date);
    });

    it('reads a stream from a revision on, and still names its last revision', async () => {
      const id = stream();
      await store.append(id, [newEvent('A'), newEvent('B'), newEvent('C')], 'no_stream');
      const tail = await store.readStream(id, { fromRevision: 1n });
      expect(tail.events.map((e) => [e.type, e.revision])).toEqual([
        ['B', 1n],
        ['C', 2n],
      ]);
      expect(tail.revision).toBe(2n);
      expect(await store.readStream(id, { fromRevision: 3n })).toEqual({ events: [], revision: 2n });
      expect(await store.readStream(stream(), { fromRevision: 1n })).toEqual({
        events: [],
        revision: 'no_stream',
      });
    });

    it('reads a missing stream as empty', async () => {
      expect(await store.readStream(stream())).toEqual({ events: [], revision: 'no_stream' });
    });

    it('keeps metadata exactly, extra keys included, and adds the chain hash', async () => {
      const id = stream();
      const event = newEvent();
      event.metadata.origin = 'abc';
      await store.append(id, [event], 'no_stream');
      const [read] = (await store.readStream(id)).events;
      expect(read!.metadata).toEqual({
        ...event.metadata,
        chainHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(read!.id).toBe(event.id);
    });

    it('chains every event of a stream to the one before it, whatever the expected revision', async () => {
      const id = stream();
      await store.append(id, [newEvent(), newEvent()], 'no_stream');
      await store.append(id, [newEvent()], 1n);
      await store.append(id, [newEvent()], 'any');
      const verifier = new ChainVerifier();
      for (const event of (await store.readStream(id)).events) verifier.add(event);
      expect(verifier.checked).toBe(4);
      expect(verifier.breaks()).toEqual([]);
    });

    it('checks the expected revision: no_stream, exact and any', async () => {
      const id = stream();
      await store.append(id, [newEvent()], 'no_stream');
      await expect(store.append(id, [newEvent()], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(store.append(id, [newEvent()], 5n)).rejects.toBeInstanceOf(WrongExpectedRevision);
      await expect(store.append(stream(), [newEvent()], 0n)).rejects.toBeInstanceOf(WrongExpectedRevision);
      expect((await store.append(id, [newEvent()], 0n)).nextRevision).toBe(1n);
      expect((await store.append(id, [newEvent()], 'any')).nextRevision).toBe(2n);
      expect((await store.append(stream(), [newEvent()], 'any')).nextRevision).toBe(0n);
    });

    it('lets exactly one of two racing appends with the same expected revision win', async () => {
      const id = stream();
      await store.append(id, [newEvent()], 'no_stream');
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => store.append(id, [newEvent()], 0n)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevision);
      }
      expect((await store.readStream(id)).events).toHaveLength(2);
    });

    it('stores an event id once: appending it again writes nothing and returns its position', async () => {
      const id = stream();
      const event = newEvent();
      const first = await store.append(id, [event], 'no_stream');
      const again = await store.append(id, [event], 'no_stream');
      expect(again).toMatchObject({ nextRevision: first.nextRevision, position: first.position });
      expect(first.alreadyStored).toBeFalsy();
      // A store that tells a repeat from an append (the PostgreSQL one does) tells it here.
      if (again.alreadyStored !== undefined) expect(again.alreadyStored).toBe(true);
      expect((await store.readStream(id)).events).toHaveLength(1);
    });

    describe('appending to several streams together', () => {
      const together = (context: { skip(note: string): void }) => {
        if (!store.appendTogether)
          context.skip(`${name} has no append to several streams in one transaction`);
        return store.appendTogether!.bind(store);
      };

      it('stores every part, chained, at consecutive positions in the order of the parts', async (context) => {
        const appendTogether = together(context);
        const [a, b] = [stream(), stream()];
        await store.append(b, [newEvent('Before')], 'no_stream');
        const outcome = await appendTogether([
          { streamId: a, events: [newEvent('A1'), newEvent('A2')], expected: 'no_stream' },
          { streamId: b, events: [newEvent('B1')], expected: 0n },
        ]);
        expect(outcome.outcome).toBe('appended');
        const results = outcome.outcome === 'appended' ? outcome.results : [];
        const [readA, readB] = [await store.readStream(a), await store.readStream(b)];
        expect(readA.events.map((e) => [e.type, e.revision])).toEqual([
          ['A1', 0n],
          ['A2', 1n],
        ]);
        expect(readB.events.map((e) => [e.type, e.revision])).toEqual([
          ['Before', 0n],
          ['B1', 1n],
        ]);
        expect(results.map((r) => r.nextRevision)).toEqual([1n, 1n]);
        expect(results.map((r) => r.position)).toEqual([
          readA.events[1]!.position,
          readB.events[1]!.position,
        ]);
        expect(readA.events[0]!.position).toBeLessThan(readA.events[1]!.position);
        expect(readA.events[1]!.position).toBeLessThan(readB.events[1]!.position);
        const verifier = new ChainVerifier();
        for (const event of [...readA.events, ...readB.events]) verifier.add(event);
        expect(verifier.breaks()).toEqual([]);
        const all = await store.readAll(readB.events[0]!.position, 10);
        expect(all.filter((e) => e.streamId === a || e.streamId === b).map((e) => e.type)).toEqual([
          'A1',
          'A2',
          'B1',
        ]);
      });

      it('stores no part when one stream is not at its expected revision, and names that stream', async (context) => {
        const appendTogether = together(context);
        const [a, b, c] = [stream(), stream(), stream()];
        await store.append(b, [newEvent(), newEvent()], 'no_stream');
        await store.append(c, [newEvent()], 'no_stream');
        const refused = await appendTogether([
          { streamId: c, events: [newEvent(), newEvent()], expected: 0n },
          { streamId: a, events: [newEvent()], expected: 'no_stream' },
          { streamId: b, events: [newEvent()], expected: 0n },
        ]).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(WrongExpectedRevision);
        expect((refused as WrongExpectedRevision).streamId).toBe(b);
        expect((refused as WrongExpectedRevision).actual).toBe(1n);
        expect(await store.readStream(a)).toEqual({ events: [], revision: 'no_stream' });
        expect((await store.readStream(b)).events).toHaveLength(2);
        // The parts that were in order are as they were: appending to them again, chained, works.
        expect((await store.readStream(c)).revision).toBe(0n);
        await store.append(c, [newEvent('After')], 0n);
        await store.append(a, [newEvent('First')], 'no_stream');
        const verifier = new ChainVerifier();
        for (const event of [...(await store.readStream(c)).events, ...(await store.readStream(a)).events]) {
          verifier.add(event);
        }
        expect(verifier.breaks()).toEqual([]);
        expect((await store.readStream(c)).revision).toBe(1n);
      });

      it('writes nothing again when a part was stored before, and tells where', async (context) => {
        const appendTogether = together(context);
        const [a, b] = [stream(), stream()];
        const repeated = newEvent();
        const first = await store.append(a, [repeated], 'no_stream');
        const outcome = await appendTogether([
          { streamId: b, events: [newEvent()], expected: 'no_stream' },
          { streamId: a, events: [repeated], expected: 'no_stream' },
        ]);
        expect(outcome).toEqual({ outcome: 'repeated', part: 1, stored: first });
        expect(await store.readStream(b)).toEqual({ events: [], revision: 'no_stream' });
      });

      it('lets one of several racing appends that share a stream win, whatever order they name the streams in', async (context) => {
        const appendTogether = together(context);
        const [a, b] = [stream(), stream()];
        await store.append(a, [newEvent()], 'no_stream');
        await store.append(b, [newEvent()], 'no_stream');
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) =>
            appendTogether(
              i % 2 === 0
                ? [
                    { streamId: a, events: [newEvent()], expected: 0n },
                    { streamId: b, events: [newEvent()], expected: 0n },
                  ]
                : [
                    { streamId: b, events: [newEvent()], expected: 0n },
                    { streamId: a, events: [newEvent()], expected: 0n },
                  ],
            ),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) {
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevision);
        }
        expect((await store.readStream(a)).revision).toBe(1n);
        expect((await store.readStream(b)).revision).toBe(1n);
      });
    });

    it('reads all events in global order, in pages, and keeps streams apart', async () => {
      const start = await store.headPosition();
      const a = stream();
      const b = stream();
      await store.append(a, [newEvent('A1')], 'no_stream');
      await store.append(b, [newEvent('B1')], 'no_stream');
      await store.append(a, [newEvent('A2')], 0n);
      const firstPage = await store.readAll(start, 2);
      const secondPage = await store.readAll(firstPage.at(-1)!.position, 10);
      const mine = [...firstPage, ...secondPage].filter((e) => e.streamId === a || e.streamId === b);
      expect(mine.map((e) => e.type)).toEqual(['A1', 'B1', 'A2']);
      expect(firstPage).toHaveLength(2);
      const positions = [...firstPage, ...secondPage].map((e) => e.position);
      expect([...positions].sort((x, y) => (x < y ? -1 : 1))).toEqual(positions);
      expect((await store.readStream(a)).events.map((e) => e.type)).toEqual(['A1', 'A2']);
      expect(await store.headPosition()).toBe(positions.at(-1));
    });

    it('reads the events at given positions, in global order, and none where a position holds none', async () => {
      const a = stream();
      await store.append(a, [newEvent('A1'), newEvent('A2'), newEvent('A3')], 'no_stream');
      const [first, second, third] = (await store.readStream(a)).events;
      const found = await store.readAt([third!.position, first!.position, third!.position]);
      expect(found.map((e) => [e.type, e.streamId, e.position])).toEqual([
        ['A1', a, first!.position],
        ['A3', a, third!.position],
      ]);
      expect(found[1]).toEqual(third);
      expect(await store.readAt([])).toEqual([]);
      const past = (await store.headPosition()) + 1_000_000n;
      expect(await store.readAt([past, second!.position])).toEqual([second]);
    });

    it("names each stream's last event, leaving out the streams that have none", async () => {
      const a = stream();
      const b = stream();
      await store.append(a, [newEvent(), newEvent()], 'no_stream');
      await store.append(b, [newEvent()], 'no_stream');
      const [, lastOfA] = (await store.readStream(a)).events;
      const heads = await store.streamHeads([a, b, stream(), a]);
      expect([...heads.keys()].sort()).toEqual([a, b].sort());
      expect(heads.get(a)).toEqual({ revision: 1n, eventId: lastOfA!.id });
      expect(heads.get(b)?.revision).toBe(0n);
      expect(await store.streamHeads([])).toEqual(new Map());
    });

    it('tells a watcher that new events were appended', async () => {
      let calls = 0;
      const stop = store.watch(() => {
        calls += 1;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.append(stream(), [newEvent()], 'no_stream');
      const deadline = Date.now() + 5_000;
      while (calls === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await stop();
      expect(calls).toBeGreaterThan(0);
    });

    it('a subscription catches up from a position, then follows new events', async () => {
      const start = await store.headPosition();
      const id = stream();
      await store.append(id, [newEvent('Before')], 'no_stream');
      const { seen, done } = collect(store, start, 3);
      await store.append(id, [newEvent('After1')], 0n);
      await store.append(id, [newEvent('After2')], 1n);
      await done;
      expect(seen.filter((e) => e.streamId === id).map((e) => e.type)).toEqual([
        'Before',
        'After1',
        'After2',
      ]);
    });
  });
}
