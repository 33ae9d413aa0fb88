import { randomUUID } from 'node:crypto';
import {
  AckPolicy,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { easternInstant } from '@shiftcover/domain';
import { countEventsAfter, type RecordedEvent } from '@shiftcover/eventstore';
import { aShift, openProcessWorld, perFile, registerPerson, until } from '@shiftcover/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeEvent,
  EVENTS_STREAM,
  EventBridge,
  encodeEvent,
  ensureEventsStream,
  eventsStreamConfig,
  subjectOf,
} from './bridge';
import { JetStreamConsumer } from './consumer';

const world = perFile(() => openProcessWorld({ nats: true }));
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: world.nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  await ensureEventsStream(await jetstreamManager(nc));
  // The bridge's checkpoint, as its start makes it: tests that publish batch by batch, without
  // starting a bridge, need it to move.
  await world.sql`insert into process_checkpoints (name) values ('nats-bridge') on conflict do nothing`;
});

afterAll(() => nc.close());

/** The ids of the events the stream stored after sequence `before`, in its order. */
async function storedSince(jsm: JetStreamManager, before: number): Promise<string[]> {
  const { last_seq } = (await jsm.streams.info(EVENTS_STREAM)).state;
  const ids: string[] = [];
  for (let seq = before + 1; seq <= last_seq; seq++) {
    const message = await jsm.streams.getMessage(EVENTS_STREAM, { seq });
    ids.push(decodeEvent(new TextDecoder().decode(message!.data)).id);
  }
  return ids;
}

/** A JetStream client that loses the publish of `lost` once, as a connection that dropped and came back. */
function losingOnce(js: JetStreamClient, lost: RecordedEvent): JetStreamClient {
  let losing = true;
  const lossy = Object.create(js) as JetStreamClient;
  lossy.publish = (subject, payload, options) => {
    if (losing && options?.msgID === lost.id) {
      losing = false;
      return Promise.reject(new Error('connection lost'));
    }
    return js.publish(subject, payload, options);
  };
  return lossy;
}

/** The bridge's checkpoint. */
async function bridged(): Promise<bigint> {
  const [row] = await world.sql<
    { position: bigint }[]
  >`select position from process_checkpoints where name = 'nats-bridge'`;
  return BigInt(row!.position);
}

/** Every event so far published, then twelve shifts posted: the events the bridge has yet to publish. */
async function twelveShiftsPending(js: JetStreamClient): Promise<RecordedEvent[]> {
  const bridge = new EventBridge({ sql: world.sql, store: world.store, js });
  while ((await bridge.publishNextBatch(1000)) > 0) {}
  await postShifts(12);
  const pending = await world.store.readAll(await bridged(), 1000);
  expect(pending.length).toBeGreaterThanOrEqual(12);
  return pending;
}

async function postShifts(count: number) {
  const admin = { kind: 'user' as const, userId: 'admin-1', role: 'admin' as const, superAdmin: true };
  for (let i = 0; i < count; i++) {
    await world.service.shift(
      {
        type: 'PostShift',
        data: aShift(),
      },
      { actor: admin, now: easternInstant('2026-03-01', '09:00') },
      { commandId: randomUUID() },
    );
  }
}

describe('the JetStream bridge and a durable consumer', () => {
  it('brings every event to the handler, its effect once, across a consumer restart and a nats-server restart', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const seen = new Map<string, number>();
    let failOnce = true;
    const handler = {
      name: 'test-recorder',
      async handle(event: RecordedEvent) {
        // The first ShiftPosted fails once: it must come back and count once.
        if (event.type === 'ShiftPosted' && failOnce) {
          failOnce = false;
          throw new Error('transient');
        }
        await world.sql`insert into parked_events (consumer, event_id, position, stream_id, event_type, error)
          values ('seen', ${event.id}, ${event.position.toString()}, ${event.streamId}, ${event.type}, '')
          on conflict do nothing`;
        seen.set(event.id, (seen.get(event.id) ?? 0) + 1);
      },
    };
    let consumer = new JetStreamConsumer({ sql: world.sql, js, jsm, handler });
    await consumer.start();
    const bridge = new EventBridge({ sql: world.sql, store: world.store, js });
    await bridge.start();

    await postShifts(10);
    await until(() => [...seen.values()].length >= 10);
    await consumer.stop();
    await postShifts(10);
    consumer = new JetStreamConsumer({ sql: world.sql, js, jsm, handler });
    await consumer.start();
    await until(() => seen.size >= 20);

    await world.nats.restart();
    await postShifts(10);
    await until(() => seen.size >= 30, 30_000);

    // Republishing what was already published (a bridge that crashed before its checkpoint).
    await world.sql`update process_checkpoints set position = 0 where name = 'nats-bridge'`;
    const republished = await bridge.publishNextBatch(1000);
    await new Promise((resolve) => setTimeout(resolve, 1500));

    await consumer.stop();
    await bridge.stop();
    const all = await world.store.readAll(0n, await countEventsAfter(world.sql, 0n, Number.MAX_SAFE_INTEGER));
    expect(seen.size).toBe(all.length);
    const [row] = await world.sql`select count(*)::int as n from parked_events where consumer = 'seen'`;
    expect(row!.n).toBe(all.length);
    expect(failOnce).toBe(false);
    // Republished events were dropped as duplicates, each on the stream once, and none refused:
    // JetStream drops a duplicate before it checks the expected last message id.
    expect((await jsm.streams.info(EVENTS_STREAM)).state.messages).toBe(all.length);
    expect(republished).toBe(all.length);
  }, 60_000);

  it('publishes a batch without waiting for each acknowledgement, and stores nothing after an event lost on the way', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const pending = await twelveShiftsPending(js);
    // The fifth event is lost between the client and the server, as on a connection that dropped
    // and came back: the server never sees it, and the events after it arrive.
    const lossy = losingOnce(js, pending[4]!);
    const before = (await jsm.streams.info(EVENTS_STREAM)).state.last_seq;
    const stored = () => storedSince(jsm, before);

    const errors: object[] = [];
    const first = new EventBridge({
      sql: world.sql,
      store: world.store,
      js: lossy,
      log: { error: (o) => errors.push(o) },
    });
    expect(await first.publishNextBatch(1000)).toBe(4);
    // Only the run before the loss is stored, and the checkpoint stands at its end.
    expect(await stored()).toEqual(pending.slice(0, 4).map((e) => e.id));
    expect(await bridged()).toBe(pending[3]!.position);
    expect(errors).toHaveLength(1);

    // The next round publishes the rest from there: every event once, in the log's order.
    while ((await first.publishNextBatch(1000)) > 0) {}
    expect(await stored()).toEqual(pending.map((e) => e.id));
  }, 30_000);

  it('publishes only the events some consumer wants, each expecting the one published before it, its checkpoint past the others', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const pending = await twelveShiftsPending(js);
    // Every third event is wanted; the third of those is lost on the way once.
    const wanted = pending.filter((_, i) => i % 3 === 1);
    const lost = wanted[2]!;
    const before = (await jsm.streams.info(EVENTS_STREAM)).state.last_seq;
    const errors: object[] = [];
    const bridge = new EventBridge({
      sql: world.sql,
      store: world.store,
      js: losingOnce(js, lost),
      publishes: (event) => wanted.some((one) => one.id === event.id),
      log: { error: (o) => errors.push(o) },
    });
    // It passes the log up to the lost event, those not wanted among them, and stops its checkpoint there.
    const at = pending.indexOf(lost);
    expect(await bridge.publishNextBatch(1000)).toBe(at);
    expect(await storedSince(jsm, before)).toEqual(wanted.slice(0, 2).map((e) => e.id));
    expect(await bridged()).toBe(pending[at - 1]!.position);
    expect(errors).toHaveLength(1);
    while ((await bridge.publishNextBatch(1000)) > 0) {}
    expect(await storedSince(jsm, before)).toEqual(wanted.map((e) => e.id));
    expect(await bridged()).toBe(pending.at(-1)!.position);

    // An event the predicate cannot judge goes out, for the consumers to handle or park; the
    // bridge does not stop on it.
    await postShifts(2);
    const unjudged = await world.store.readAll(await bridged(), 1000);
    const judging = new EventBridge({
      sql: world.sql,
      store: world.store,
      js,
      publishes: (event) => {
        if (event.id === unjudged[0]!.id)
          throw new TypeError("Cannot read properties of null (reading 'escalated')");
        return false;
      },
    });
    expect(await judging.publishNextBatch(1000)).toBe(unjudged.length);
    expect(await storedSince(jsm, before)).toEqual([...wanted.map((e) => e.id), unjudged[0]!.id]);

    // A batch that no consumer wants moves the checkpoint and stores nothing.
    await postShifts(3);
    const unwanted = await world.store.readAll(await bridged(), 1000);
    const none = new EventBridge({ sql: world.sql, store: world.store, js, publishes: () => false });
    expect(await none.publishNextBatch(1000)).toBe(unwanted.length);
    expect(await storedSince(jsm, before)).toEqual([...wanted.map((e) => e.id), unjudged[0]!.id]);
    expect(await bridged()).toBe(unwanted.at(-1)!.position);
  }, 30_000);

  it('hands what a busy stream delivered together to handleBatch, and each on its own when a batch fails', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const bridge = new EventBridge({ sql: world.sql, store: world.store, js });
    await postShifts(120);
    while ((await bridge.publishNextBatch(1000)) > 0) {}
    const ours = (await world.store.readAll(0n, 100_000)).filter((e) => e.type === 'ShiftPosted').slice(-120);
    // Near the end: the batches before its own hold none of it.
    const poison = ours.at(-5)!.id;
    const seen = new Map<string, number>();
    const batches: number[] = [];
    const count = (event: RecordedEvent) => seen.set(event.id, (seen.get(event.id) ?? 0) + 1);
    // Each call takes a while, as a busy database would: what arrives meanwhile waits, and comes together.
    const busy = () => new Promise((resolve) => setTimeout(resolve, 100));
    const handler = {
      name: `batches-${randomUUID().slice(0, 8)}`,
      async handle(event: RecordedEvent) {
        await busy();
        if (event.id === poison) throw new Error('no such residence');
        count(event);
      },
      async handleBatch(events: RecordedEvent[]) {
        await busy();
        if (events.some((e) => e.id === poison)) throw new Error('no such residence');
        batches.push(events.length);
        events.forEach(count);
      },
    };
    // The stream already holds every event when the consumer starts: they come in batches.
    const logged: string[] = [];
    const consumer = new JetStreamConsumer({
      sql: world.sql,
      js,
      jsm,
      handler,
      maxDeliver: 1,
      log: { error: (_o, message) => logged.push(message) },
    });
    await consumer.start();
    await until(async () => {
      const [row] =
        await world.sql`select count(*)::int as n from parked_events where consumer = ${handler.name}`;
      return row!.n > 0 && ours.every((e) => e.id === poison || seen.has(e.id));
    });
    await consumer.stop();
    expect(Math.max(...batches)).toBeGreaterThan(1);
    // Every other event once, whether in a batch or, in the failed batch, on its own.
    for (const event of ours) expect(seen.get(event.id)).toBe(event.id === poison ? undefined : 1);
    const parked = await world.sql`select event_id from parked_events where consumer = ${handler.name}`;
    expect(parked.map((row) => row.event_id)).toEqual([poison]);
    // Operators see the failed batch and the parked event.
    expect(logged).toEqual(['batch not handled: its messages are handled one at a time', 'event parked']);
  }, 30_000);

  it('parks a message that keeps failing, where developers can see it', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const handler = {
      name: `always-fails-${randomUUID().slice(0, 8)}`,
      async handle(event: RecordedEvent) {
        if (event.type === 'ShiftPosted') throw new Error('mail server refused the address');
      },
    };
    // Retries wait 1 s, 5 s, 30 s…: this consumer is made to give up at once by shrinking them.
    const consumer = new JetStreamConsumer({ sql: world.sql, js, jsm, handler, maxDeliver: 1 });
    await consumer.start();
    await postShifts(1);
    const [posted] = (await world.store.readAll(0n, 10_000))
      .filter((e) => e.type === 'ShiftPosted')
      .slice(-1);
    await js.publish(subjectOf(posted!.type), encodeEvent(posted!));
    await until(async () => {
      const [row] =
        await world.sql`select count(*)::int as n from parked_events where consumer = ${handler.name}`;
      return row!.n > 0;
    });
    await consumer.stop();
    const [parked] =
      await world.sql`select event_type, error from parked_events where consumer = ${handler.name} limit 1`;
    expect(parked).toMatchObject({ event_type: 'ShiftPosted', error: 'mail server refused the address' });
  }, 30_000);

  it('drops an unreadable message and goes on with the next one', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const seen = new Set<string>();
    const handler = {
      name: `reader-${randomUUID().slice(0, 8)}`,
      async handle(event: RecordedEvent) {
        seen.add(event.id);
      },
    };
    const consumer = new JetStreamConsumer({ sql: world.sql, js, jsm, handler });
    await consumer.start();
    await postShifts(1);
    const [posted] = await world.store.readAll(0n, 1);
    const after = { ...posted!, id: randomUUID() };
    await js.publish(subjectOf('ShiftPosted'), 'not an event');
    await js.publish(subjectOf(after.type), encodeEvent(after));
    await until(() => seen.has(after.id));
    await consumer.stop();
  }, 30_000);

  it('brings a stream made by an earlier version, which kept every event for ever, to a 7-day limit in place', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(EVENTS_STREAM);
    // The configuration of earlier versions: no age limit.
    await jsm.streams.add({ name: EVENTS_STREAM, subjects: ['shiftcover.events.>'] });
    await jsm.consumers.add(EVENTS_STREAM, { durable_name: 'earlier', ack_policy: AckPolicy.Explicit });
    await postShifts(5);
    const events = (await world.store.readAll(0n, 10_000)).slice(-5);
    for (const event of events)
      await js.publish(subjectOf(event.type), encodeEvent(event), { msgID: event.id });
    const earlier = await js.consumers.get(EVENTS_STREAM, 'earlier');
    for (let i = 0; i < 3; i++) (await earlier.next())!.ack();
    await until(async () => (await jsm.consumers.info(EVENTS_STREAM, 'earlier')).ack_floor.stream_seq === 3);

    await ensureEventsStream(jsm);
    const updated = await jsm.streams.info(EVENTS_STREAM);
    expect(updated.config).toMatchObject(eventsStreamConfig);
    // Nothing lost: the consumer goes on with the first event it had not acknowledged.
    expect(updated.state.messages).toBe(5);
    const next = await earlier.next();
    expect(decodeEvent(next!.string()).id).toBe(events[3]!.id);
    next!.ack();
  }, 30_000);
});

describe('events on NATS', () => {
  it('carry personal data sealed, and unreadable once the person is erased', async () => {
    const now = easternInstant('2026-03-01', '09:00');
    const person = await registerPerson(world.service, 'wilhelmina', { role: 'staff', now });
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.add(EVENTS_STREAM, { durable_name: 'erasure-check', ack_policy: AckPolicy.Explicit });
    const bridge = new EventBridge({ sql: world.sql, store: world.store, js });
    while ((await bridge.publishNextBatch(1000)) > 0) {}
    const { state } = await jsm.streams.info(EVENTS_STREAM);
    const published: string[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
      const message = await jsm.streams.getMessage(EVENTS_STREAM, { seq });
      if (message) published.push(new TextDecoder().decode(message.data));
    }
    // Other tests here put an unreadable message on the stream too.
    const events = published.filter((text) => text.startsWith('{')).map(decodeEvent);
    const theirs = events.filter((e) => e.data.userId === person.userId);
    expect(theirs.map((e) => e.type)).toEqual(['UserRegistered']);
    expect(published.join('\n')).not.toMatch(/wilhelmina/i);
    expect((await world.vault.open(theirs))[0]?.data.personal).toMatchObject({ username: 'wilhelmina' });
    await world.vault.erase(person.userId);
    expect((await world.vault.open(theirs))[0]?.data.personal).toBeNull();
  });
});
