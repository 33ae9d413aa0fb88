import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createCommandService } from '@shiftcover/command-api';
import { countEventsAfter } from '@shiftcover/eventstore';
import { freePort, hashPassword, loadConfig } from '@shiftcover/platform';
import { createTestDatabase } from '@shiftcover/platform/testing';
import { plannerReads } from '@shiftcover/processes';
import { registerPerson, startSmtpServer, subjectOf } from '@shiftcover/testing';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './faults/kill-child';
import { startProduct } from './product';
import { Client, PASSWORD } from './testing/http';
import { aShiftForm, inDays } from './testing/shift-form';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** What `npm start` is given, on a fresh database and data directory; and the lines it logs. */
async function startOn(env: Record<string, string>) {
  const db = await createTestDatabase();
  cleanups.push(() => db.drop());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shiftcover-start-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const config = loadConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, PORT: String(port), ...env });
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const product = await startProduct(config, logger);
  cleanups.push(() => product.stop());
  return { product, lines, baseUrl: `http://127.0.0.1:${port}`, dataDir };
}

const saying = (lines: string[], text: string) => lines.filter((line) => line.includes(text));

describe('npm start', () => {
  it('runs the process managers on a nats-server of its own, JetStream on, its storage under DATA_DIR', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const { product, lines, baseUrl, dataDir } = await startOn({ SMTP_URL: smtp.url });
    expect(product.natsUrl).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(saying(lines, 'embedded nats-server started')[0]).toContain(path.join(dataDir, 'nats'));
    expect(saying(lines, 'No nats-server')).toEqual([]);

    // A claim, made over HTTP, mails the admin through the durable consumer.
    const { runtime } = product;
    const service = createCommandService(runtime.handler, runtime.vault);
    const passwordHash = await hashPassword(PASSWORD);
    const people: Record<string, Client> = {};
    for (const [name, role] of [
      ['ada', 'admin'],
      ['sam', 'staff'],
    ] as const) {
      await registerPerson(service, name, {
        role,
        superAdmin: role === 'admin',
        personal: { passwordHash },
        now: new Date(),
      });
      people[name] = new Client(baseUrl);
      expect(
        (await people[name]!.post('/api/auth/login', { username: name, password: PASSWORD })).status,
      ).toBe(200);
    }
    const created = await people.ada!.post('/api/shifts', aShiftForm({ date: inDays(2) }));
    expect(created.status).toBe(201);
    const shiftId = created.body.id as string;
    expect((await people.sam!.post(`/api/shifts/${shiftId}/claim`)).status).toBe(200);
    await eventually('the admin is mailed about the claim', async () =>
      smtp.inbox.some(
        (m) => m.to.includes('ada@example.org') && subjectOf(m.raw).startsWith('Claim awaiting approval'),
      ),
    );

    const nc = await connect({ servers: product.natsUrl });
    try {
      const jsm = await jetstreamManager(nc);
      const email = await jsm.consumers.info('SHIFTCOVER_EVENTS', 'email');
      expect(email.delivered.stream_seq).toBeGreaterThan(0);
      // The claim's reservation on Sam's schedule, the registrations and the like no process reads:
      // they are not published.
      const read = async () => {
        const events = await runtime.store.readAll(0n, await countEventsAfter(runtime.sql, 0n, 1_000_000));
        return { all: events.length, read: events.filter(plannerReads).length };
      };
      const now = await read();
      expect(now.read).toBeLessThan(now.all);
      await eventually('every event the planner reads is on the stream once, and acknowledged', async () => {
        const { state } = await jsm.streams.info('SHIFTCOVER_EVENTS');
        const events = (await read()).read;
        const consumer = await jsm.consumers.info('SHIFTCOVER_EVENTS', 'email');
        return (
          state.messages === events && state.last_seq === events && consumer.ack_floor.stream_seq === events
        );
      });
    } finally {
      await nc.close();
    }
  });

  it('follows the event store directly where there is no nats-server, and says so in one line', async () => {
    const previous = process.env.NATS_SERVER_BIN;
    process.env.NATS_SERVER_BIN = '/nowhere/nats-server';
    try {
      const { product, lines } = await startOn({});
      expect(product.natsUrl).toBeUndefined();
      expect(saying(lines, 'No nats-server found')).toHaveLength(1);
      expect(saying(lines, 'nats')).toHaveLength(1);
    } finally {
      if (previous === undefined) delete process.env.NATS_SERVER_BIN;
      else process.env.NATS_SERVER_BIN = previous;
    }
  });
});
