import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { easternInstant } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { migrate } from '@shiftcover/platform';
import { startNatsServer, type TestNatsServer } from '@shiftcover/platform/testing';
import { type Bench, openBench, type Prepared, prepare } from '@shiftcover/projections/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMigrations } from '../mail/migrations';
import { EventBridge, encodeEvent, ensureEventsStream, subjectOf } from './bridge';
import { JetStreamConsumer } from './consumer';

let bench: Bench;
let world: Prepared;
let nats: TestNatsServer;
let nc: NatsConnection;

beforeAll(async () => {
  bench = await openBench();
  world = await prepare(bench.sql);
  await migrate(bench.sql, 'mail', mailMigrations);
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  await ensureEventsStream(await jetstreamManager(nc));
});

afterAll(async () => {
  await nc.close();
  await nats.stop();
  await bench.close();
});

async function postShifts(count: number) {
  const admin = { kind: 'user' as const, userId: 'admin-1', role: 'admin' as const, superAdmin: true };
  for (let i = 0; i < count; i++) {
    await world.service.shift(
      {
        type: 'PostShift',
        data: {
          shiftId: randomUUID(),
          location: 'Maple House',
          date: '2026-03-10',
          startTime: '08:00',
          endTime: '16:00',
          type: 'AM',
          status: 'open',
          requirements: null,
          notes: null,
        },
      },
      { actor: admin, now: easternInstant('2026-03-01', '09:00') },
      { commandId: randomUUID() },
    );
  }
}

async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
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
        await bench.sql`insert into parked_messages (consumer, event_id, event_type, position, error)
          values ('seen', ${event.id}, ${event.type}, ${event.position.toString()}, '') on conflict do nothing`;
        seen.set(event.id, (seen.get(event.id) ?? 0) + 1);
      },
    };
    const bridge = new EventBridge({ sql: bench.sql, store: world.store, js });
    await bridge.start();
    let consumer = new JetStreamConsumer({ sql: bench.sql, js, jsm, handler });
    await consumer.start();

    await postShifts(10);
    await until(() => [...seen.values()].length >= 10);
    await consumer.stop();
    await postShifts(10);
    consumer = new JetStreamConsumer({ sql: bench.sql, js, jsm, handler });
    await consumer.start();
    await until(() => seen.size >= 20);

    await nats.restart();
    await postShifts(10);
    await until(() => seen.size >= 30, 30_000);

    // Republishing what was already published (a bridge that crashed before its checkpoint).
    await bench.sql`update process_checkpoints set position = 0 where name = 'nats-bridge'`;
    await bridge.publishNextBatch(1000);
    await new Promise((resolve) => setTimeout(resolve, 1500));

    await consumer.stop();
    await bridge.stop();
    const head = await world.store.headPosition();
    const all = await world.store.readAll(0n, Number(head));
    expect(seen.size).toBe(all.length);
    const [row] = await bench.sql`select count(*)::int as n from parked_messages where consumer = 'seen'`;
    expect(row!.n).toBe(all.length);
    expect(failOnce).toBe(false);
  }, 60_000);

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
    const consumer = new JetStreamConsumer({ sql: bench.sql, js, jsm, handler, maxDeliver: 1 });
    await consumer.start();
    await until(async () => {
      const [row] =
        await bench.sql`select count(*)::int as n from parked_messages where consumer = ${handler.name}`;
      return row!.n > 0;
    });
    await consumer.stop();
    const [parked] =
      await bench.sql`select event_type, error from parked_messages where consumer = ${handler.name} limit 1`;
    expect(parked).toMatchObject({ event_type: 'ShiftPosted', error: 'mail server refused the address' });
  }, 30_000);

  it('drops an unreadable message and goes on with the next one', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    await postShifts(1);
    const [posted] = await world.store.readAll(0n, 1);
    const after = { ...posted!, id: randomUUID() };
    await js.publish(subjectOf('ShiftPosted'), 'not an event');
    await js.publish(subjectOf(after.type), encodeEvent(after));
    const seen = new Set<string>();
    const handler = {
      name: `reader-${randomUUID().slice(0, 8)}`,
      async handle(event: RecordedEvent) {
        seen.add(event.id);
      },
    };
    const consumer = new JetStreamConsumer({ sql: bench.sql, js, jsm, handler });
    await consumer.start();
    await until(() => seen.has(after.id));
    await consumer.stop();
  }, 30_000);
});
