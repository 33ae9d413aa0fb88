import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { easternInstant, streams } from '@shiftcover/domain';
import { countEventsAfter, type RecordedEvent } from '@shiftcover/eventstore';
import { HttpError } from '@shiftcover/platform';
import { startNatsServer, type TestNatsServer } from '@shiftcover/platform/testing';
import {
  listParkedEvents,
  ProjectionRunner,
  park,
  projections,
  readCheckpoint,
} from '@shiftcover/projections';
import {
  appendUnapplicableUser,
  aShift,
  openProcessWorld,
  perFile,
  registerPerson,
  subjectOf,
  until,
} from '@shiftcover/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBridge, ensureEventsStream } from '../nats/bridge';
import { JetStreamConsumer } from '../nats/consumer';
import { retryParked } from '../parked-events';
import { MailProcess } from './mail-process';
import type { MailPlannerDeps } from './planner-deps';
import { emailHandler } from './runner';
import { smtpTransport } from './smtp';

const world = perFile(() => openProcessWorld({ smtp: true }));
const now = easternInstant('2026-03-01', '09:00');

const planner = (): MailPlannerDeps =>
  world.mailPlanner(async (position, models) => {
    const deadline = Date.now() + 5_000;
    for (const model of models) {
      while ((await readCheckpoint(world.sql, model))!.position < position) {
        if (Date.now() > deadline) throw new HttpError(503, 'The latest changes are still being processed.');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  });

/** A report whose record list is not a list: the planner's query refuses it every time. */
async function appendUnplannableReport(): Promise<string> {
  const operationId = randomUUID();
  const eventId = randomUUID();
  await world.store.append(
    streams.operation(operationId),
    [
      {
        id: eventId,
        type: 'CompletedShiftsReported',
        data: { reportId: operationId, period: '2026-02', recordIds: 'not a list', at: now.toISOString() },
        metadata: {
          commandId: operationId,
          correlationId: operationId,
          causationId: operationId,
          actorId: 'system:test',
          actorRole: 'system',
          schemaVersion: 1,
        },
      },
    ],
    'no_stream',
  );
  return eventId;
}

async function postShift(location: string) {
  const admin = { kind: 'user' as const, userId: 'admin-1', role: 'admin' as const, superAdmin: true };
  await world.service.shift(
    {
      type: 'PostShift',
      data: aShift({ location }),
    },
    { actor: admin, now },
    { commandId: randomUUID() },
  );
}

const received = (subject: string) => world.smtp.inbox.some((m) => subjectOf(m.raw) === subject);

describe('mail past events nobody can apply', () => {
  it('is still planned and sent for later events; what could not be handled is parked', async () => {
    const runner = new ProjectionRunner(world.deps, projections, { idleMs: 100 });
    await runner.start();
    await registerPerson(world.service, 'sam', { role: 'staff', now });
    const mail = new MailProcess({
      ...planner(),
      transport: smtpTransport(world.smtp.url),
      from: 'Shift Coverage <shifts@example.org>',
      senderIntervalMs: 100,
    });
    await mail.start();
    try {
      const user = await appendUnapplicableUser(world.deps, 'nul-name', now);
      const report = await appendUnplannableReport();
      await postShift('Maple House');
      await until(() => received('New shift available: Maple House, 2026-03-10'));
      expect(world.smtp.inbox.at(-1)!.to).toEqual(['sam@example.org']);
      const parked = await listParkedEvents(world.sql);
      // The completed-shifts read model cannot apply the broken report either.
      expect(parked.map((p) => [p.consumer, p.eventId])).toEqual([
        ['completed_shifts', report],
        ['email', report],
        ['users', user.eventId],
      ]);
      expect(parked[1]!.error).toMatch(/malformed array literal/);

      // A developer retries a parked mail event once its cause is gone; the planner is long past it.
      const [posted] = (await world.store.readAll(user.position, 100)).filter(
        (e) => e.type === 'ShiftPosted',
      );
      await world.sql`delete from email_deliveries where event_id = ${posted!.id}`;
      await park(world.sql, 'email', { event: posted!, error: 'SMTP server refused the connection' });
      const commandId = randomUUID();
      const retried = await retryParked(
        { sql: world.sql, store: world.store, service: world.service, handlers: [emailHandler(planner())] },
        'email',
        posted!.id,
        {
          operationId: randomUUID(),
          context: { actor: { kind: 'system', name: 'test' }, now },
          trace: { commandId },
        },
      );
      expect(retried.applied).toBe(true);
      const [decision] = await world.store.readAll(retried.position - 1n, 1);
      expect(decision).toMatchObject({
        type: 'ParkedEventRetried',
        data: {
          consumer: 'email',
          eventId: posted!.id,
          eventType: 'ShiftPosted',
          applied: true,
          error: null,
        },
        metadata: { actorId: 'system:test' },
      });
      expect(await world.sql`select recipient from email_deliveries where event_id = ${posted!.id}`).toEqual([
        { recipient: 'sam@example.org' },
      ]);
      expect((await listParkedEvents(world.sql, { consumer: 'email' })).map((p) => p.eventId)).toEqual([
        report,
      ]);
    } finally {
      await mail.stop();
      await runner.stop();
    }
  }, 30_000);
});

describe('a JetStream consumer', () => {
  let nats: TestNatsServer;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    await ensureEventsStream(await jetstreamManager(nc));
  });
  afterAll(async () => {
    await nc.close();
    await nats.stop();
  });

  it('never parks an event over a failure of the database: it is delivered again until it goes through', async () => {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const seen: string[] = [];
    let outages = 2;
    const handler = {
      name: `outage-${randomUUID().slice(0, 8)}`,
      async handle(event: RecordedEvent) {
        if (event.type === 'ShiftPosted' && outages > 0) {
          outages -= 1;
          throw Object.assign(new Error('the database system is shutting down'), { code: '57P01' });
        }
        seen.push(event.id);
      },
    };
    const bridge = new EventBridge({ sql: world.sql, store: world.store, js });
    await bridge.start();
    // One delivery before parking, so only the kind of failure keeps the event from being parked.
    const consumer = new JetStreamConsumer({ sql: world.sql, js, jsm, handler, maxDeliver: 1 });
    await consumer.start();
    try {
      await postShift('Oak Lodge');
      const events = await countEventsAfter(world.sql, 0n, Number.MAX_SAFE_INTEGER);
      await until(() => seen.length === events, 20_000);
      expect(outages).toBe(0);
      expect(await listParkedEvents(world.sql, { consumer: handler.name })).toEqual([]);
    } finally {
      await consumer.stop();
      await bridge.stop();
    }
  }, 30_000);
});
