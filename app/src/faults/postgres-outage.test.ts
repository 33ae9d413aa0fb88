import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { easternToday, inCategory, nextDate, scheduleDecider, streams } from '@shiftcover/domain';
import { connect, DATABASE_UNAVAILABLE_MESSAGE, freePort } from '@shiftcover/platform';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@shiftcover/platform/embedded';
import { parkedEventCounts, projections, readCheckpoints, rebuild } from '@shiftcover/projections';
import { dumpReadModels } from '@shiftcover/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type Client, type Reply, startTestServer } from '../testing/http';

const WORKERS = 6;
const STAFF = 4;
/** No reply may take longer than this, outage or not. */
const REPLY_BOUND_MS = 10_000;
/** Each shift runs through these commands in turn; the store must end with exactly these events. */
const STEPS = ['post', 'claim', 'approve'] as const;
const EVENT_OF = { post: 'ShiftPosted', claim: 'ShiftClaimed', approve: 'ClaimApproved' } as const;

type Step = (typeof STEPS)[number];

interface Sent {
  step: Step;
  /** The Idempotency-Key: the same on a retry, so a retry names the same command. */
  key: string;
  /** The x-request-id, which the command's events carry as their correlation id. */
  requestId: string;
  status: number;
  body: Reply['body'];
  retryAfter: string | null;
  ms: number;
}

/** One shift on a day of its own, posted, claimed by one staff member and approved. */
interface Lane {
  date: string;
  staff: Client & { userId: string };
  shiftId?: string;
  step: number;
  key: string;
  sent: Sent[];
}

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const succeeded = (status: number) => status >= 200 && status < 300;

async function until(condition: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

/** A reply, or status 0 when none came within the bound. */
async function bounded(call: Promise<Reply>): Promise<Reply & { ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Reply>((resolve) => {
    timer = setTimeout(() => resolve({ status: 0, body: {}, headers: new Headers() }), REPLY_BOUND_MS);
  });
  const reply = await Promise.race([call, timeout]).finally(() => clearTimeout(timer));
  return { ...reply, ms: Date.now() - started };
}

/** Its own PostgreSQL, stopped and started again on the same port and data directory. */
async function ownPostgres() {
  const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-outage-'));
  // As root the server runs as the `postgres` user, which must be able to enter the folder.
  await chmod(root, 0o755);
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dataDir = path.join(root, 'pg');
  const port = await freePort();
  let running: EmbeddedDatabase | undefined = await startEmbeddedPostgres({ dataDir, port });
  cleanups.push(async () => running?.stop());
  return {
    url: running.url,
    async stop() {
      await running?.stop();
      running = undefined;
    },
    async start() {
      running = await startEmbeddedPostgres({ dataDir, port });
    },
  };
}

describe('PostgreSQL stopped during a load of commands', () => {
  it('answers 503 with Retry-After, never 500 or a hang; after the restart the same commands succeed; nothing is half-written', async () => {
    const postgres = await ownPostgres();
    const server = await startTestServer({ databaseUrl: postgres.url, web: false });
    cleanups.push(() => server.close());
    const admin = await server.signedIn('admin');
    const staff = await Promise.all(Array.from({ length: STAFF }, () => server.signedIn('staff')));
    const anonymous = server.anonymous();

    const lanes: Lane[] = [];
    let day = nextDate(easternToday(new Date()));
    const newLane = (): Lane => {
      day = nextDate(day);
      const lane = { date: day, staff: staff[lanes.length % STAFF]!, step: 0, key: randomUUID(), sent: [] };
      lanes.push(lane);
      return lane;
    };

    /** Sends the lane's current command: the retry of one that failed carries the same key. */
    async function send(lane: Lane): Promise<Sent> {
      const step = STEPS[lane.step]!;
      const requestId = randomUUID();
      const headers = { 'idempotency-key': lane.key, 'x-request-id': requestId };
      const call =
        step === 'post'
          ? admin.post(
              '/api/shifts',
              { location: 'Maple House', type: 'AM', date: lane.date, startTime: '08:00', endTime: '16:00' },
              headers,
            )
          : (step === 'claim' ? lane.staff : admin).post(
              `/api/shifts/${lane.shiftId}/${step}`,
              undefined,
              headers,
            );
      const reply = await bounded(call);
      const sent = {
        step,
        key: lane.key,
        requestId,
        status: reply.status,
        body: reply.body,
        retryAfter: reply.headers.get('retry-after'),
        ms: reply.ms,
      };
      lane.sent.push(sent);
      if (succeeded(reply.status)) {
        if (step === 'post') lane.shiftId = reply.body.id as string;
        lane.step += 1;
        lane.key = randomUUID();
      }
      return sent;
    }

    // Each worker runs lanes one after the other; a refused command is sent again with its key
    // after a pause, as a client honouring Retry-After would (sooner, to keep the test short).
    let going = true;
    const worker = async () => {
      while (going) {
        const lane = newLane();
        while (going && lane.step < STEPS.length) {
          if (!succeeded((await send(lane)).status)) await sleep(250);
        }
      }
    };
    const replies = () => lanes.flatMap((lane) => lane.sent);
    const load = Promise.all(Array.from({ length: WORKERS }, worker));

    await until(
      async () => replies().filter((s) => succeeded(s.status)).length >= 40,
      30_000,
      'the load runs',
    );
    await postgres.stop();
    await sleep(1_000);
    const duringOutage = await Promise.all([
      admin.get('/api/shifts'),
      staff[0]!.get('/api/my-shifts'),
      admin.get('/api/auth/user'),
      anonymous.post('/api/auth/login', { username: 'nobody', password: 'whatever' }),
    ]);
    // Not ready, and saying why; still alive, so nothing restarts it for an outage elsewhere.
    const readiness = await anonymous.get('/readyz');
    expect(readiness.status).toBe(503);
    expect(readiness.body.checks).toMatchObject({ postgres: { ok: false } });
    expect((await anonymous.get('/healthz')).status).toBe(200);
    await sleep(1_000);
    going = false;
    await load;

    for (const reply of duringOutage) {
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE });
      expect(reply.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
    const answers = replies();
    const refused = answers.filter((s) => !succeeded(s.status));
    for (const sent of answers) {
      expect(sent.ms).toBeLessThan(REPLY_BOUND_MS);
      if (succeeded(sent.status)) continue;
      expect(sent).toMatchObject({ status: 503, body: { message: DATABASE_UNAVAILABLE_MESSAGE } });
      expect(sent.retryAfter).toMatch(/^[1-9]\d*$/);
    }
    expect(refused.length).toBeGreaterThan(0);

    await postgres.start();
    await until(
      async () => (await anonymous.get('/readyz')).status === 200,
      15_000,
      'PostgreSQL answers again',
    );
    const sql = connect(postgres.url, { max: 2 });
    cleanups.push(() => sql.end());
    const ownEvents = (requestId: string) =>
      sql<{ stream_id: string; type: string; position: bigint }[]>`
        select stream_id, type, position from events
        where metadata->>'correlationId' = ${requestId} order by position`;
    /** What the attempts at one command wrote to shift streams (a claim also reserves time on a schedule). */
    const shiftEventsOf = async (attempts: Sent[]) =>
      (await Promise.all(attempts.map((sent) => ownEvents(sent.requestId))))
        .flat()
        .filter((e) => inCategory(e.stream_id, 'shift'));

    // An acknowledged command is in the store, at the position it reported. A refused one left all
    // of its events or none: the reply can be lost after the commit, and a retry then finds them.
    let writtenThoughRefused = 0;
    for (const lane of lanes) {
      for (const key of new Set(lane.sent.map((sent) => sent.key))) {
        const attempts = lane.sent.filter((sent) => sent.key === key);
        const step = attempts[0]!.step;
        const written = await shiftEventsOf(attempts);
        const acknowledged = attempts.find((sent) => succeeded(sent.status));
        if (acknowledged) {
          expect(written.map((e) => e.type)).toEqual([EVENT_OF[step]]);
          expect(written[0]!.position.toString()).toBe(acknowledged.body.position);
        } else {
          expect([[], [EVENT_OF[step]]]).toContainEqual(written.map((e) => e.type));
          if (written.length > 0) writtenThoughRefused += 1;
        }
      }
    }

    // After the restart the reads answer again, and the commands that were refused go through,
    // each sent again with its key.
    expect((await admin.get('/api/shifts')).status).toBe(200);
    const retried: Sent[] = [];
    for (const lane of lanes) {
      while (lane.step < STEPS.length) {
        const sent = await send(lane);
        retried.push(sent);
        expect(sent.status, JSON.stringify(sent.body)).toBeGreaterThanOrEqual(200);
        expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
      }
    }

    // Every shift holds each of its events once: no command lost, none applied twice.
    const shiftIds = lanes.map((lane) => lane.shiftId!);
    const shiftStreams = await sql<{ stream_id: string; types: string[] }[]>`
      select stream_id, array_agg(type order by revision) as types from events
      where stream_id = any(${shiftIds.map(streams.shift)}) group by stream_id`;
    expect(shiftStreams).toHaveLength(lanes.length);
    for (const stream of shiftStreams) expect(stream.types).toEqual(STEPS.map((step) => EVENT_OF[step]));

    // Each person's schedule reserves exactly the shifts they hold: none double-booked, none left
    // reserved by a claim that was cut off.
    for (const person of staff) {
      const { state } = await server.runtime.handler.load(streams.schedule(person.userId), scheduleDecider);
      const held = lanes.filter((lane) => lane.staff === person).map((lane) => lane.shiftId);
      expect(state.reservations.map((r) => r.shiftId).sort()).toEqual(held.sort());
    }

    // The read models caught up with the log, hold every acknowledged change, and equal a rebuild.
    const head = await server.runtime.store.headPosition();
    await until(
      async () => (await readCheckpoints(sql)).every((checkpoint) => checkpoint.position === head),
      20_000,
      'the read models catch up',
    );
    const rows = await sql<{ id: string; status: string; assigned_user_id: string | null }[]>`
      select id, status, assigned_user_id from rm_shifts where id = any(${shiftIds})`;
    expect(rows).toHaveLength(lanes.length);
    for (const lane of lanes) {
      expect(rows.find((row) => row.id === lane.shiftId)).toMatchObject({
        status: 'approved',
        assigned_user_id: lane.staff.userId,
      });
    }
    // The outage was no fault of any event: none was parked.
    expect(await parkedEventCounts(sql)).toEqual({});
    const live = await dumpReadModels(sql);
    const deps = { sql, store: server.runtime.store, vault: server.runtime.vault };
    for (const projection of projections) await rebuild(deps, projection);
    expect(await dumpReadModels(sql)).toEqual(live);

    console.info(
      `${answers.length} commands during the load: ${answers.length - refused.length} acknowledged, ` +
        `${refused.length} refused with 503 (${writtenThoughRefused} refused commands had been written before ` +
        `their reply was lost); ` +
        `${retried.length} sent after the restart; slowest reply ${Math.max(...answers.map((s) => s.ms))} ms`,
    );
  });
});
