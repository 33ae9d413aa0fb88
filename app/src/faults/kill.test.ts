import { createCommandService } from '@shiftcover/command-api';
import { streams } from '@shiftcover/domain';
import { countEventsAfter } from '@shiftcover/eventstore';
import { connect, createLogger, loadConfig, withQueryParameter } from '@shiftcover/platform';
import { createTestDatabase } from '@shiftcover/platform/testing';
import { emailHandler, settleDueShifts } from '@shiftcover/processes';
import { ProjectionRunner, projections, readCheckpoints, rebuild } from '@shiftcover/projections';
import { dumpReadModels, HistoryWriter, historyStep, startSmtpServer } from '@shiftcover/testing';
import fc from 'fast-check';
import type { Sql } from 'postgres';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { openRuntime, type Runtime } from '../runtime';
import { eventually, ServiceProcess, sleep } from './kill-child';
import { TeamLoad } from './kill-load';

const SEED = 7_042;
const KILLS = 3;
const MAIL_FROM = 'Shift Coverage <no-reply@shiftcover.local>';
const PUBLIC_URL = 'https://shifts.example.org';

/** Run at the end in reverse order, whatever happened. */
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function openWorld() {
  const db = await createTestDatabase();
  cleanups.push(() => db.drop());
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
  const runtime = await openRuntime(config, createLogger('silent'));
  cleanups.push(() => runtime.close());
  return { url: db.url, runtime };
}

/** A service of the product in its own process; its connections carry `name` to be told apart. */
function service(entry: string, name: string, env: Record<string, string>) {
  const url = withQueryParameter(env.DATABASE_URL!, 'application_name', name);
  const child = new ServiceProcess(entry, { LOG_LEVEL: 'info', ...env, DATABASE_URL: url });
  cleanups.push(() => child.stop());
  onTestFailed(() => {
    console.error(`--- output of ${entry} ---\n${child.output.slice(-20_000)}`);
  });
  return child;
}

/** Waits, bounded, until a connection of the named service is in a transaction running `query`. */
async function untilInTransaction(sql: Sql, name: string, query: string): Promise<boolean> {
  const until = Date.now() + 3_000;
  while (Date.now() < until) {
    const [open] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where application_name = ${name} and xact_start is not null
        and state in ('active', 'idle in transaction') and query ilike ${query}`;
    if (open!.n > 0) return true;
  }
  return false;
}

interface KillPlan {
  child: ServiceProcess;
  /** The application name of its connections. */
  name: string;
  /** What it logs once it has begun its work, and once it is fully running. */
  lines: { working: string; running: string };
  /** The transaction each kill waits for, in turn: LIKE patterns on the statement it runs. */
  queries: string[];
  load: (going: () => boolean) => Promise<unknown>;
  afterKill?: () => Promise<void>;
}

/**
 * SIGKILLs the service KILLS times while the load runs, each a random pause after it has begun its
 * work and then as soon as it has the next kind of transaction open, and starts it again; the last
 * start comes after the load, and is left running. Returns how many kills cut a transaction off.
 */
async function killDuring(sql: Sql, plan: KillPlan): Promise<number> {
  const { child, name, lines, queries, load, afterKill } = plan;
  const pauses = fc.sample(fc.integer({ min: 0, max: 1_000 }), { seed: SEED, numRuns: KILLS });
  let going = true;
  const loading = load(() => going);
  loading.catch(() => {
    going = false;
  });
  let cut = 0;
  try {
    for (const [i, pause] of pauses.entries()) {
      if (!going) break;
      await child.printed(lines.working);
      await sleep(pause);
      if (await untilInTransaction(sql, name, queries[i % queries.length]!)) cut += 1;
      await child.kill();
      await afterKill?.();
      if (i < pauses.length - 1) child.start();
    }
  } finally {
    going = false;
    await loading;
  }
  child.start();
  await child.printed(lines.running);
  return cut;
}

async function caughtUp(runtime: Runtime): Promise<boolean> {
  const head = await runtime.store.headPosition();
  const checkpoints = await readCheckpoints(runtime.sql);
  return checkpoints.length === projections.length && checkpoints.every((c) => c.position === head);
}

const messageIdOf = (raw: string) => /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
const deliveryMessageId = (id: bigint) => `<delivery-${id}@shiftcover.local>`;

async function plannedMails(sql: Sql): Promise<string[]> {
  const rows = await sql<{ event_id: string; recipient: string }[]>`
    select event_id, recipient from email_deliveries order by event_id, recipient`;
  return rows.map((r) => `${r.event_id} → ${r.recipient}`);
}

/** The mails a planner never interrupted plans from the same log, in a scratch schema. */
async function replan(url: string, runtime: Runtime, after: bigint): Promise<string[]> {
  await runtime.sql.unsafe(`
    create schema replan;
    create table replan.email_deliveries (like public.email_deliveries including all);
    create table replan.process_checkpoints (like public.process_checkpoints including all)`);
  const sql = connect(withQueryParameter(url, 'search_path', 'replan,public'), { max: 2 });
  try {
    await sql`insert into process_checkpoints (name, position) values ('email', ${after.toString()})`;
    const handler = emailHandler({
      sql,
      store: runtime.store,
      vault: runtime.vault,
      readModelsAt: async () => {},
      publicUrl: PUBLIC_URL,
      smtpConfigured: true,
    });
    let position = after;
    for (;;) {
      const events = await runtime.store.readAll(position, 500);
      if (events.length === 0) break;
      for (const event of events) await handler.handle(event);
      position = events.at(-1)!.position;
    }
    return await plannedMails(sql);
  } finally {
    await sql.end();
    await runtime.sql`drop schema replan cascade`;
  }
}

describe('killed with SIGKILL at random moments during a load', () => {
  it('the projector loses no event and applies none twice: its read models equal a rebuild', async () => {
    const { url, runtime } = await openWorld();
    const commands = createCommandService(runtime.handler, runtime.vault);
    const projector = service('app/src/services/projections.ts', 'killed-projector', { DATABASE_URL: url });
    projector.start();
    await projector.printed('projector running');

    const steps = fc.sample(historyStep, { seed: SEED, numRuns: 2_000 });
    const team = new TeamLoad(commands);
    await team.setUp();
    // A random history beside a team's rounds, so that transactions also commit out of order.
    const history = async (going: () => boolean) => {
      let writer: HistoryWriter | undefined;
      for (let i = 0; going() || i < 200; i++) {
        // A fresh cast now and then: the random steps act mostly on a writer's first shifts.
        if (i % 100 === 0) {
          writer = new HistoryWriter(commands);
          await writer.setUp();
        }
        await writer!.step(steps[i % steps.length]!);
        await sleep(15);
      }
    };
    // The completion timer's sweep, run here: it reads what the killed projector wrote.
    const timers = { sql: runtime.sql, service: commands };
    const rounds = async (going: () => boolean) => {
      for (let i = 0; going() || i < 30; i++) {
        await team.round();
        await settleDueShifts(timers);
        await sleep(100);
      }
    };
    const cut = await killDuring(runtime.sql, {
      child: projector,
      name: 'killed-projector',
      lines: { working: 'projector running', running: 'projector running' },
      // A batch being applied to a read model's tables.
      queries: ['%"rm_%'],
      load: (going) => Promise.all([history(going), rounds(going)]),
    });
    await eventually('every projection has reached the head of the log', () => caughtUp(runtime), 60_000);
    await projector.stop();

    const incremental = await dumpReadModels(runtime.sql);
    const deps = { sql: runtime.sql, store: runtime.store, vault: runtime.vault };
    for (const projection of projections) await rebuild(deps, projection);
    const rebuilt = await dumpReadModels(runtime.sql);
    expect(projector.kills).toBe(KILLS);
    expect(cut).toBeGreaterThan(0);
    expect(await countEventsAfter(runtime.sql, 0n, 401)).toBeGreaterThan(400);
    for (const table of ['audit_logs', 'notifications', 'completed_shifts', 'shifts', 'transfer_requests'])
      expect(rebuilt[table]?.length, table).toBeGreaterThan(0);
    for (const table of Object.keys(rebuilt)) expect(incremental[table], table).toEqual(rebuilt[table]);
  }, 120_000);

  it('the process managers plan each mail once and send it, and complete each shift once', async () => {
    const { url, runtime } = await openWorld();
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const commands = createCommandService(runtime.handler, runtime.vault);
    const deps = { sql: runtime.sql, store: runtime.store, vault: runtime.vault };
    // The read models the planner and the timers read, kept up to date here, never killed.
    const projector = new ProjectionRunner(deps, projections, { idleMs: 100 });
    await projector.start();
    cleanups.push(() => projector.stop());
    const team = new TeamLoad(commands);
    await team.setUp();
    await eventually('the read models know the team', () => caughtUp(runtime));

    const mailedFrom = await runtime.store.headPosition();
    const processes = service('app/src/services/processes.ts', 'killed-processes', {
      DATABASE_URL: url,
      SMTP_URL: smtp.url,
      MAIL_FROM,
      PUBLIC_URL,
    });
    processes.start();
    await processes.printed('processes running');

    // After each kill: the mails the SMTP server took whose sending was never recorded.
    const inFlight: Set<string>[] = [];
    const cut = await killDuring(runtime.sql, {
      child: processes,
      name: 'killed-processes',
      // Mail starts right after the store is open; the timers sweep before it says it is running.
      lines: { working: 'event store: PostgreSQL', running: 'processes running' },
      // Planning mails, sending one, settling a shift (a command).
      queries: ['insert into email_deliveries%', '%for update skip locked', '%eventstore_append%'],
      load: async (going) => {
        for (let i = 0; going() || i < 10; i++) {
          await team.round();
          await sleep(1_200);
        }
      },
      afterKill: async () => {
        await sleep(300); // lets the SMTP server finish reading what the killed process wrote
        const received = new Set(smtp.inbox.map((m) => messageIdOf(m.raw)));
        const queued = await runtime.sql<{ id: bigint }[]>`
          select id from email_deliveries where status = 'queued'`;
        inFlight.push(new Set(queued.map((r) => deliveryMessageId(r.id)).filter((id) => received.has(id))));
      },
    });

    const countOf = async (type: string, shiftIds: string[]) => {
      const [row] = await runtime.sql<{ n: number }[]>`
        select count(*)::int as n from events where type = ${type} and stream_id = any(${shiftIds.map(streams.shift)})`;
      return row!.n;
    };
    await eventually(
      'every mail is planned and sent and every due shift settled',
      async () => {
        const head = await runtime.store.headPosition();
        const [state] = await runtime.sql<{ position: bigint; waiting: number }[]>`
          select (select position from process_checkpoints where name = 'email') as position,
            (select count(*)::int from email_deliveries where status <> 'sent') as waiting`;
        return (
          BigInt(state!.position) === head &&
          state!.waiting === 0 &&
          (await countOf('ShiftCompleted', team.worked)) >= team.worked.length &&
          (await countOf('ShiftExpired', team.unfilled)) >= team.unfilled.length
        );
      },
      60_000,
    );
    await processes.stop();

    expect(processes.kills).toBe(KILLS);
    expect(cut).toBeGreaterThan(0);
    // Planned: each (event, recipient) once, exactly what an uninterrupted planner plans.
    const planned = await plannedMails(runtime.sql);
    expect(planned.length).toBeGreaterThan(50);
    expect(planned).toEqual(await replan(url, runtime, mailedFrom));
    // Sent: every planned mail reached the SMTP server, under its own Message-ID, to its recipient.
    const sent = await runtime.sql<{ id: bigint; recipient: string; status: string }[]>`
      select id, recipient, status from email_deliveries order by id`;
    expect(sent.filter((row) => row.status !== 'sent')).toEqual([]);
    const received = new Map(smtp.inbox.map((m) => [messageIdOf(m.raw), m.to.join(',')]));
    expect([...received].sort()).toEqual(
      sent.map((row) => [deliveryMessageId(row.id), row.recipient]).sort(),
    );
    // A mail arrives twice only when a kill cut it off between the SMTP server and its record.
    const copies = new Map<string, number>();
    for (const m of smtp.inbox) copies.set(messageIdOf(m.raw), (copies.get(messageIdOf(m.raw)) ?? 0) + 1);
    const unexplained = [...copies].filter(
      ([id, n]) => n - 1 > inFlight.filter((cutOff) => cutOff.has(id)).length,
    );
    expect(unexplained).toEqual([]);
    expect(smtp.inbox.length - received.size).toBeLessThanOrEqual(inFlight.reduce((n, s) => n + s.size, 0));
    // Settled: each worked shift completed once, each unfilled one expired once.
    expect(team.worked.length).toBeGreaterThan(3);
    expect(await countOf('ShiftCompleted', team.worked)).toBe(team.worked.length);
    expect(await countOf('ShiftExpired', team.unfilled)).toBe(team.unfilled.length);
    const [completions] = await runtime.sql<{ n: number }[]>`
      select count(*)::int as n from events where type = 'ShiftCompleted'`;
    expect(completions!.n).toBe(team.worked.length);
  }, 120_000);
});
