import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { easternInstant } from '@shiftcover/domain';
import { migrate } from '@shiftcover/platform';
import { startNatsServer, type TestNatsServer } from '@shiftcover/platform/testing';
import { applyNextBatch, install, projections } from '@shiftcover/projections';
import { type Bench, openBench, type Prepared, prepare } from '@shiftcover/projections/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMigrations } from '../mail/migrations';
import { emailHandler, mailFromNow } from '../mail/runner';
import { deliverDue } from '../mail/sender';
import { smtpTransport } from '../mail/smtp';
import { registerPerson } from '../testing/people';
import { startSmtpServer, subjectOf, type TestSmtpServer } from '../testing/smtp';
import { EventBridge, ensureEventsStream } from './bridge';
import { JetStreamConsumer } from './consumer';

let bench: Bench;
let world: Prepared;
let nats: TestNatsServer;
let smtp: TestSmtpServer;
const now = easternInstant('2026-03-01', '09:00');
const admin = { kind: 'user' as const, userId: 'admin-1', role: 'admin' as const, superAdmin: true };

beforeAll(async () => {
  bench = await openBench();
  world = await prepare(bench.sql);
  await migrate(bench.sql, 'mail', mailMigrations);
  for (const projection of projections) await install(bench.sql, projection);
  nats = await startNatsServer();
  smtp = await startSmtpServer();
  for (const name of ['ana', 'ben']) await registerPerson(world.service, name, { role: 'staff', now });
  await mailFromNow(bench.sql, world.store);
});

afterAll(async () => {
  await smtp.close();
  await nats.stop();
  await bench.close();
});

async function until(check: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const planned = async () =>
  (await bench.sql`select count(*)::int as n from email_deliveries`)[0]!.n as number;

describe('the e-mail planner as a JetStream consumer', () => {
  it('killed mid-stream under load and started again: every mail once, none lost', async () => {
    const nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    await ensureEventsStream(jsm);
    const handler = emailHandler({
      sql: bench.sql,
      store: world.store,
      vault: world.vault,
      publicUrl: 'https://shifts.example.org',
      smtpConfigured: true,
      async readModelsAt() {
        for (const projection of projections) while ((await applyNextBatch(world.deps, projection)) > 0) {}
      },
    });
    // The consumer has a connection of its own, closed without warning to kill it.
    const start = async () => {
      const own = await connect({ servers: nats.url });
      // Messages in flight at the kill come back after the ack wait, shortened here from 30 s.
      const consumer = new JetStreamConsumer({
        sql: bench.sql,
        js: jetstream(own),
        jsm,
        handler,
        ackWaitMs: 2_000,
      });
      await consumer.start();
      return own;
    };
    let consumerConnection = await start();
    const bridge = new EventBridge({ sql: bench.sql, store: world.store, js: jetstream(nc) });
    await bridge.start();

    const SHIFTS = 200;
    for (let i = 0; i < SHIFTS; i++) {
      await world.service.shift(
        {
          type: 'PostShift',
          data: {
            shiftId: randomUUID(),
            location: `Home ${i}`,
            date: '2026-03-10',
            startTime: '08:00',
            endTime: '16:00',
            type: 'AM',
            status: 'open',
            requirements: null,
            notes: null,
          },
        },
        { actor: admin, now },
        { commandId: randomUUID() },
      );
      if (i === 120) {
        await until(async () => (await planned()) > 40);
        await consumerConnection.close();
      }
    }
    expect(await planned()).toBeLessThan(SHIFTS * 2);
    consumerConnection = await start();
    await until(async () => (await planned()) >= SHIFTS * 2);
    // Redeliveries of what was in flight when it was killed arrive too; give them time to do nothing.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await consumerConnection.close();
    await bridge.stop();
    await nc.close();

    // One pooled SMTP connection for the 400 mails.
    const pooled = smtpTransport(`${smtp.url}/?pool=true`);
    await deliverDue(bench.sql, pooled, 'Shift Coverage <shifts@example.org>');
    pooled.close();
    const received = smtp.inbox.map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`);
    expect(received).toHaveLength(SHIFTS * 2);
    expect(new Set(received).size).toBe(SHIFTS * 2);
    for (let i = 0; i < SHIFTS; i++) {
      expect(received).toContain(`ana@example.org | New shift available: Home ${i}, 2026-03-10`);
    }
  }, 90_000);
});
