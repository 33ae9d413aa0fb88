import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type Actor, easternInstant, nextDate } from '@shiftcover/domain';
import { countEventsAfter, type RecordedEvent } from '@shiftcover/eventstore';
import { applyNextBatch, projections, readCheckpoint } from '@shiftcover/projections';
import {
  aShift,
  openProcessWorld,
  type Prepared,
  perFile,
  registerPerson,
  subjectOf,
  until,
} from '@shiftcover/testing';
import nodemailer from 'nodemailer';
import { beforeAll, describe, expect, it } from 'vitest';
import { MailProcess } from '../mail/mail-process';
import { emailHandler, mailFromNow } from '../mail/runner';
import { EVENTS_STREAM, EventBridge, ensureEventsStream } from './bridge';
import { JetStreamConsumer } from './consumer';

const world = perFile(() => openProcessWorld({ readModels: true, nats: true, smtp: true }));
const now = easternInstant('2026-03-01', '09:00');
const STAFF = ['ana', 'ben', 'cal'];
const staff: Actor[] = [];
let admin: Actor;

const register = (name: string, role: 'admin' | 'staff') =>
  registerPerson(world.service, name, { role, now });

beforeAll(async () => {
  admin = await register('ada', 'admin');
  for (const name of STAFF) staff.push(await register(name, 'staff'));
  await mailFromNow(world.sql, world.store);
});

/**
 * Keeps staff busy until stopped: each round posts a shift (mailed to every staff member), has one
 * of them claim it (mailed to the admin) and approves the claim (mailed to the claimant). Returns
 * the mails those commands must produce, as "recipient | subject".
 */
function startLoad() {
  const expected: string[] = [];
  let running = true;
  let day = '2026-03-01';
  let round = 0;
  const shift = (command: Parameters<Prepared['service']['shift']>[0], actor: Actor) =>
    world.service.shift(command, { actor, now }, { commandId: randomUUID() });
  const postOne = async () => {
    round += 1;
    day = nextDate(day);
    const shiftId = randomUUID();
    const location = `Home ${round}`;
    const on = `${location}, ${day}`;
    await shift(
      {
        type: 'PostShift',
        data: aShift({ shiftId, location, date: day }),
      },
      admin,
    );
    for (const name of STAFF) expected.push(`${name}@example.org | New shift available: ${on}`);
    return { shiftId, on };
  };
  const done = (async () => {
    while (running) {
      const { shiftId, on } = await postOne();
      const claimant = round % STAFF.length;
      await shift({ type: 'ClaimShift', data: { shiftId } }, staff[claimant]!);
      expected.push(`ada@example.org | Claim awaiting approval: ${on}`);
      await shift({ type: 'ApproveClaim', data: { shiftId } }, admin);
      expected.push(`${STAFF[claimant]}@example.org | Shift confirmed: ${on}`);
      await new Promise((resolve) => setTimeout(resolve, 700));
    }
  })();
  return {
    expected,
    postOne,
    async stop() {
      running = false;
      await done;
    },
  };
}

describe('nats-server restarted under load', () => {
  it('the bridge and the mail consumer resume, and every mail arrives exactly once', async () => {
    // Started in order, stopped in reverse, whatever the outcome.
    const running: { stop(): Promise<void> }[] = [];
    const stopAll = async () => {
      while (running.length) await running.pop()!.stop();
    };
    try {
      // Connected as the application connects: reconnecting for ever.
      const nc = await connect({ servers: world.nats.url, maxReconnectAttempts: -1 });
      running.push({ stop: () => nc.close() });
      const js = jetstream(nc);
      const jsm = await jetstreamManager(nc);
      await ensureEventsStream(jsm);

      const planner = emailHandler(
        world.mailPlanner(async (position, readModels) => {
          for (const projection of projections.filter((p) => readModels.includes(p.name))) {
            while ((await readCheckpoint(world.sql, projection.name))!.position < position)
              await applyNextBatch(world.deps, projection);
          }
        }),
      );
      const handled = new Set<string>();
      let lastHandled = 0n;
      const handler = {
        name: planner.name,
        async handle(event: RecordedEvent) {
          await planner.handle(event);
          handled.add(event.id);
          if (event.position > lastHandled) lastHandled = event.position;
        },
      };
      // Messages whose acks were lost with the server come back after the ack wait, shortened from 30 s.
      const consumer = new JetStreamConsumer({ sql: world.sql, js, jsm, handler, ackWaitMs: 5_000 });
      await consumer.start();
      running.push(consumer);
      const bridge = new EventBridge({ sql: world.sql, store: world.store, js });
      await bridge.start();
      running.push(bridge);

      // One pooled SMTP connection, closed at the end so that the server can stop at once.
      const pooled = nodemailer.createTransport({ url: world.smtp.url, pool: true });
      running.push({ stop: async () => pooled.close() });
      const sender = new MailProcess({
        ...world.mailPlanner(async () => {}),
        transport: {
          async send(mail) {
            await pooled.sendMail(mail);
          },
        },
        from: 'Shift Coverage <shifts@example.org>',
        plan: false,
        senderIntervalMs: 200,
      });
      await sender.start();
      running.push(sender);

      const load = startLoad();
      running.push(load);
      await until(async () => world.smtp.inbox.length > 0, 30_000, 'the consumer plans mail');
      for (const outageMs of [1_500, 2_000, 1_000]) {
        await world.nats.restart(outageMs);
        // Commands went on during the outage; the consumer resumes once it plans what came after.
        const after = await world.store.headPosition();
        await until(async () => lastHandled > after, 30_000, 'the consumer resumes');
      }
      await load.stop();

      // A command after the last restart is mailed too.
      const fresh = await load.postOne();
      // Planning waits for the read models and sending for SMTP: generous on a busy machine.
      await until(async () => world.smtp.inbox.length >= load.expected.length, 75_000, 'every mail is sent');
      await until(
        async () => {
          const { num_pending, num_ack_pending } = await jsm.consumers.info(EVENTS_STREAM, handler.name);
          return num_pending === 0 && num_ack_pending === 0;
        },
        30_000,
        'every message is acknowledged',
      );
      // A message handled twice would have been planned and sent again by now.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const stream = await jsm.streams.info(EVENTS_STREAM);
      await stopAll();

      const events = await world.store.readAll(
        0n,
        await countEventsAfter(world.sql, 0n, Number.MAX_SAFE_INTEGER),
      );
      expect(events.filter((event) => !handled.has(event.id))).toEqual([]);
      // Each event was stored once: the bridge's republishing after an outage was deduplicated.
      expect(stream.state).toMatchObject({ last_seq: events.length, messages: events.length });
      const received = world.smtp.inbox.map((m) => `${m.to.join(',')} | ${subjectOf(m.raw)}`);
      expect(received.toSorted()).toEqual(load.expected.toSorted());
      expect(received).toContain(`ana@example.org | New shift available: ${fresh.on}`);
      const [parked] = await world.sql`select count(*)::int as n from parked_events`;
      expect(parked!.n).toBe(0);
    } finally {
      await stopAll();
    }
  }, 180_000);
});
