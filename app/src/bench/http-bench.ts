import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { Runtime } from '../runtime';
import { createAccounts, postShifts, signIn } from './harness';

export interface LoadFigures {
  connections: number;
  /** Completed claim + approve pairs per second. */
  pairsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

interface Claimants {
  /** One staff member per connection, each with a queue of shifts on days of their own. */
  queues: { cookie: string; shiftIds: string[] }[];
  adminCookie: string;
}

/**
 * Claim then approve, over and over, at `connections` concurrent clients: each client is one staff
 * member taking shifts from their own queue, so every claim succeeds and none conflicts.
 */
async function claimLoad(
  baseUrl: string,
  paths: { claim: (id: string) => string; approve: (id: string) => string },
  who: Claimants,
  connections: number,
  durationSeconds: number,
): Promise<LoadFigures> {
  let next = 0;
  type Context = { queue?: Claimants['queues'][number]; shiftId?: string };
  // Each pair takes the next queue in turn, so no queue runs dry before every client has made this
  // many pairs: a fast machine ends the run early rather than running out of shifts.
  const pairsPerClient = Math.min(...who.queues.map((queue) => queue.shiftIds.length));
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: durationSeconds,
    maxConnectionRequests: 2 * pairsPerClient,
    requests: [
      {
        method: 'POST',
        setupRequest: (request, context: Context) => {
          context.queue ??= who.queues[next++ % who.queues.length]!;
          context.shiftId = context.queue.shiftIds.pop();
          if (!context.shiftId) throw new Error('the bench ran out of shifts: give it more');
          return {
            ...request,
            path: paths.claim(context.shiftId),
            headers: { cookie: context.queue.cookie },
          };
        },
      },
      {
        method: 'POST',
        setupRequest: (request, context: Context) => ({
          ...request,
          path: paths.approve(context.shiftId!),
          headers: { cookie: who.adminCookie },
        }),
      },
    ],
  });
  return {
    connections,
    pairsPerSecond: Math.round(result.requests.average / 2),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** Two runs of the same load as one: their mean rate and percentiles, their failures together. */
export function meanLoad(a: LoadFigures, b: LoadFigures): LoadFigures {
  const mean = (x: number, y: number) => Math.round((x + y) / 2);
  return {
    connections: a.connections,
    pairsPerSecond: mean(a.pairsPerSecond, b.pairsPerSecond),
    p50: mean(a.p50, b.p50),
    p99: mean(a.p99, b.p99),
    failures: a.failures + b.failures,
  };
}

/** Staff accounts and shift queues for the event-sourced server. */
export async function eventSourcedClaimants(
  runtime: Runtime,
  baseUrl: string,
  staffCount: number,
  shiftsPerStaff: number,
): Promise<Claimants> {
  const [admin] = await createAccounts(runtime, 'admin', 1, `bench-admin-${randomUUID().slice(0, 6)}`);
  const staff = await createAccounts(runtime, 'staff', staffCount, `bench-staff-${randomUUID().slice(0, 6)}`);
  const queues = [];
  for (const [i, person] of staff.entries()) {
    queues.push({
      cookie: await signIn(baseUrl, person.username),
      shiftIds: await postShifts(runtime, shiftsPerStaff, i * shiftsPerStaff),
    });
  }
  return { queues, adminCookie: await signIn(baseUrl, admin!.username) };
}

/** The same for the CRUD baseline: rows and sessions written straight into its tables. */
export async function crudClaimants(
  runtime: Runtime,
  staffCount: number,
  shiftsPerStaff: number,
): Promise<Claimants> {
  const { sql } = runtime;
  const adminSid = randomUUID();
  await sql`insert into crud_sessions ${sql({ sid: adminSid, user_id: randomUUID(), role: 'admin' })}`;
  const queues = [];
  for (let s = 0; s < staffCount; s++) {
    const sid = randomUUID();
    await sql`insert into crud_sessions ${sql({ sid, user_id: randomUUID(), role: 'staff' })}`;
    const rows = Array.from({ length: shiftsPerStaff }, (_, k) => ({
      id: randomUUID(),
      date: new Date(Date.UTC(2031, 0, 1) + (s * shiftsPerStaff + k) * 86_400_000).toISOString().slice(0, 10),
      start_time: '08:00',
      end_time: '16:00',
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await sql`insert into crud_shifts ${sql(rows.slice(i, i + 1000))}`;
    queues.push({ cookie: `sid=${sid}`, shiftIds: rows.map((r) => r.id) });
  }
  return { queues, adminCookie: `sid=${adminSid}` };
}

export const eventSourcedPaths = {
  claim: (id: string) => `/api/shifts/${id}/claim`,
  approve: (id: string) => `/api/shifts/${id}/approve`,
};
export const crudPaths = {
  claim: (id: string) => `/crud/shifts/${id}/claim`,
  approve: (id: string) => `/crud/shifts/${id}/approve`,
};

export { claimLoad };

/**
 * GET /api/shifts (the staff member's open-shift list) at `connections` clients, each asking for
 * gzip as browsers do: the bytes per response are the compressed body.
 */
export async function shiftListLoad(
  baseUrl: string,
  cookie: string,
  connections: number,
  durationSeconds: number,
  path = '/api/shifts',
) {
  const result = await autocannon({
    url: `${baseUrl}${path}`,
    connections,
    duration: durationSeconds,
    headers: { cookie, 'accept-encoding': 'gzip' },
  });
  return {
    connections,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    bytesPerResponse: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

/** Whether every JetStream consumer of the server has taken and acknowledged all it was given. */
async function jetStreamIdle(baseUrl: string): Promise<boolean> {
  const page = await fetch(`${baseUrl}/metrics`).then(
    (r) => (r.ok ? r.text() : ''),
    () => '',
  );
  return page
    .split('\n')
    .filter((line) => line.startsWith('shiftcover_jetstream_pending{'))
    .every((line) => Number(line.split(' ').at(-1)) === 0);
}

/**
 * Waits until the server has digested what was written before (its read models, its process
 * managers and its JetStream consumers have reached the log's head) and answers /healthz
 * promptly, so a load run measures that load alone, not the backlog of the one before or of the
 * bench's own setup. It gives up after `waitSeconds`: on a machine busy with other work /healthz
 * may never be prompt. Says whether it settled.
 */
export async function settled(baseUrl: string, sql: Runtime['sql'], waitSeconds = 120): Promise<boolean> {
  const deadline = Date.now() + waitSeconds * 1000;
  const [head] = await sql<{ position: bigint | null }[]>`select max(position) as position from events`;
  const target = head?.position ?? 0n;
  let prompt = 0;
  while (prompt < 3 && Date.now() < deadline) {
    // A process checkpoint still for a minute is no consumer at work: under JetStream the mail
    // planner's row only marks where mail began, and stays there.
    const [behind] = await sql<{ position: bigint | null }[]>`
      select min(position) as position from (
        select position from projection_checkpoints
        union all
        select position from process_checkpoints where updated_at > now() - interval '1 minute'
      ) checkpoints`;
    const started = performance.now();
    const ok = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    // Under JetStream the mail planner and the other durable consumers count what they have still
    // to take on the server's metrics page.
    const consumersIdle = await jetStreamIdle(baseUrl);
    const caughtUp = (behind?.position ?? target) >= target && consumersIdle;
    prompt = caughtUp && ok && performance.now() - started < 20 ? prompt + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return prompt >= 3;
}

/**
 * Waits for every read model to reach the log's head as it stands now, and fails the bench when
 * they stop short of it and do not move for `stallSeconds`: beside a stuck projector a load run
 * measures a server doing less than its work, and settled() only gives up on such a wait. Slow
 * progress is waited for; only standing still fails.
 */
export async function readModelsCaughtUp(sql: Runtime['sql'], stallSeconds = 30): Promise<void> {
  const [head] = await sql<{ position: bigint | null }[]>`select max(position) as position from events`;
  const target = head?.position ?? 0n;
  let last: bigint | undefined;
  let movedAt = Date.now();
  for (;;) {
    const [behind] = await sql<{ position: bigint | null }[]>`
      select min(position) as position from projection_checkpoints`;
    const at = behind?.position ?? target;
    if (at >= target) return;
    if (at !== last) [last, movedAt] = [at, Date.now()];
    else if (Date.now() - movedAt > stallSeconds * 1000) {
      throw new Error(
        `the read models stopped at position ${at}, short of the log's head at ${target}, and did not move for ${stallSeconds} s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Has PostgreSQL vacuum and analyze the database before a load run, as pgbench does before its
 * runs: what the setup wrote in bulk (its shifts, and the notifications each posting fans out to
 * every staff member) is cleaned up now rather than by autovacuum during the run, so the run pays
 * for its own writes, not for the setup's. Called before a run's CPU time is first read, never
 * between a run and its last reading: the vacuum's own time is no part of a pair's.
 */
export async function vacuumed(sql: Runtime['sql']): Promise<void> {
  await sql`vacuum (analyze)`;
}
