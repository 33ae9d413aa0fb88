import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { easternInstant } from '@shiftcover/domain';
import { aShift, openProcessWorld, perFile, registerPerson, subjectOf, until } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailHandler, mailFromNow } from '../mail/runner';
import { deliverDue } from '../mail/sender';
import { smtpTransport } from '../mail/smtp';
import { EventBridge, ensureEventsStream } from './bridge';
import { JetStreamConsumer } from './consumer';

const world = perFile(() => openProcessWorld({ readModels: true, nats: true, smtp: true }));
const now = easternInstant('2026-03-01', '09:00');
const admin = { kind: 'user' as const, userId: 'admin-1', role: 'admin' as const, superAdmin: true };

beforeAll(async () => {
  for (const name of ['ana', 'ben']) await registerPerson(world.service, name, { role: 'staff', now });
  await mailFromNow(world.sql, world.store);
});

const planned = async () =>
  (await world.sql`select count(*)::int as n from email_deliveries`)[0]!.n as number;

describe('the e-mail planner as a JetStream consumer', () => {
  it('killed mid-stream under load and started again: every mail once, none lost', async () => {
    const nc = await connect({ servers: world.nats.url });
    const jsm = await jetstreamManager(nc);
    await ensureEventsStream(jsm);
    const planner = emailHandler(world.mailPlanner());
    // The backlog after the restart comes in batches, planned together.
    const batches: number[] = [];
    const handler = {
      ...planner,
      async handleBatch(events: Parameters<typeof planner.handleBatch>[0]) {
        await planner.handleBatch(events);
        batches.push(events.length);
      },
    };
    // The consumer has a connection of its own, closed without warning to kill it.
    const start = async () => {
      const own = await connect({ servers: world.nats.url });
      // Messages in flight at the kill come back after the ack wait, shortened here from 30 s.
      const consumer = new JetStreamConsumer({
        sql: world.sql,
        js: jetstream(own),
        jsm,
        handler,
        ackWaitMs: 2_000,
      });
      await consumer.start();
      return own;
    };
    let consumerConnection = await start();
    const bridge = new EventBridge({ sql: world.sql, store: world.store, js: jetstream(nc) });
    await bridge.start();

    const SHIFTS = 200;
    for (let i = 0; i < SHIFTS; i++) {
      await world.service.shift(
        {
          type: 'PostShift',
          data: aShift({ location: `Home ${i}` }),
        },
        { actor: admin, now },
        { commandId: randomUUID() },
      );
      if (i === 120) {
        await until(async () => (await planned()) > 40, 60_000);
        await consumerConnection.close();
      }
    }
    expect(await planned()).toBeLessThan(SHIFTS * 2);
    consumerConnection = await start();
    await until(async () => (await planned()) >= SHIFTS * 2, 60_000);
    // Redeliveries of what was in flight when it was killed arrive too; give them time to do nothing.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await consumerConnection.close();
    await bridge.stop();
    await nc.close();

    // One pooled SMTP connection for the 400 mails.
    const pooled = smtpTransport(`${world.smtp.url}/?pool=true`);
    await deliverDue(world.sql, pooled, 'Shift Coverage <shifts@example.org>');
    pooled.close();
    const received = world.smtp.inbox.map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`);
    expect(Math.max(...batches)).toBeGreaterThan(1);
    expect(received).toHaveLength(SHIFTS * 2);
    expect(new Set(received).size).toBe(SHIFTS * 2);
    for (let i = 0; i < SHIFTS; i++) {
      expect(received).toContain(`ana@example.org | New shift available: Home ${i}, 2026-03-10`);
    }
  }, 90_000);
});
