import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCommandService } from '@shiftcover/command-api';
import autocannon from 'autocannon';
import { benchDatabase, createAccounts, freePort, signIn, startProcess, system } from './harness';
import { claimLoad, eventSourcedClaimants, eventSourcedPaths, type LoadFigures, settled } from './http-bench';
import { type LagFigures, readYourWritesLag } from './lag-sampler';
import { YearOfShifts } from './year';

/** What the Available Shifts screen asks for first (web/src/features/shifts/shift-list.ts). */
export const AVAILABLE_SHIFTS_FIRST_PAGE = '/api/shifts?status=open&limit=100';

/** Each read as the web app asks for it (web/src/features), named as its screen. */
const READS = [
  { name: 'Available Shifts, first 100 (staff)', path: AVAILABLE_SHIFTS_FIRST_PAGE, as: 'staff' },
  { name: 'My Shifts (staff)', path: '/api/my-shifts', as: 'staff' },
  { name: 'Shift Management, first 100 (admin)', path: '/api/shifts?status=all&limit=100', as: 'admin' },
  { name: 'Pending Approvals, first 100 (admin)', path: '/api/shifts/pending?limit=100', as: 'admin' },
  // On every screen: the staff member's latest notices and unread count, a year of postings unread.
  { name: 'Notifications bell (staff)', path: '/api/notifications', as: 'staff' },
] as const;
const FILL_REPORT_EVERY = 25_000;
const CONSTANT = { name: 'bare route, constant JSON', path: '/bench/constant' };

export interface ReadFigure {
  name: string;
  path: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
  bytesPerResponse: number;
}

export interface YearStage {
  /** Events in the store when the reads were measured. */
  events: number;
  shifts: number;
  /** Whether the server had digested the store (read models and process managers at its head). */
  settled: boolean;
  reads: ReadFigure[];
  /** One client claiming and approving shifts of its own, after the reads. */
  commands: LoadFigures;
  /** Read-your-writes lag of one client's claims, alone. */
  lag: LagFigures;
}

export interface YearFigures {
  residences: number;
  connections: number;
  durationSeconds: number;
  /** Seconds to write the whole year through the command handler. */
  fillSeconds: number;
  stages: YearStage[];
}

export interface YearOptions {
  residences: number;
  pastDays: number;
  upcomingDays: number;
  /** Store sizes (events) at which the reads are measured; the last stage is the whole year. */
  stages: number[];
  connections: number;
  durationSeconds: number;
  settleSeconds: number;
  log: (text: string) => void;
}

/**
 * The reads of the four list screens on a store that grows to a year of shifts, each measured
 * at `stages` sizes and at the end, beside a constant route of the same server process
 * (BENCH_CONSTANT_ROUTE), at `connections` clients asking for gzip as browsers do.
 */
export async function yearReads(options: YearOptions): Promise<YearFigures> {
  const db = await benchDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shiftcover-bench-data-'));
  // What was started, stopped in the end whether or not the rest started.
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    const server = await startProcess(
      'app/src/main.ts',
      { DATABASE_URL: db.url, DATA_DIR: dataDir, BENCH_CONSTANT_ROUTE: 'true' },
      await freePort(),
    );
    started.push(server);
    const residences = await createResidences(db.runtime, options.residences);
    const perDay = residences.length * 3;
    const staff = await createAccounts(db.runtime, 'staff', perDay * 4, 'year-staff');
    const [admin] = await createAccounts(db.runtime, 'admin', 1, 'year-admin');
    const cookies = {
      staff: await signIn(server.baseUrl, staff[0]!.username),
      admin: await signIn(server.baseUrl, admin!.username),
    };
    const year = new YearOfShifts(db.runtime.handler, {
      residences,
      pastDays: options.pastDays,
      upcomingDays: options.upcomingDays,
      staff: staff.map((person) => person.userId),
      adminId: admin!.userId,
    });
    const stages: YearStage[] = [];
    let fillSeconds = 0;
    for (const target of [...options.stages, Number.POSITIVE_INFINITY]) {
      const started = performance.now();
      // Written in steps, each reported, so that a long fill shows how it goes.
      while (!year.done && year.events < target) {
        await year.fillTo(Math.min(target, year.events + FILL_REPORT_EVERY));
        options.log(`year bench: ${year.events} shift and schedule events written`);
      }
      fillSeconds += (performance.now() - started) / 1000;
      // Positions come from transaction ids (docs/architecture.md §4.1): the events are counted.
      const [stored] = await db.runtime.sql<{ events: number }[]>`select count(*)::int as events from events`;
      const events = stored?.events ?? 0;
      if (stages.at(-1)?.events === events) continue;
      const caughtUp = await settled(server.baseUrl, db.runtime.sql, options.settleSeconds);
      const [count] = await db.runtime.sql<
        { shifts: number }[]
      >`select count(*)::int as shifts from rm_shifts`;
      const reads: ReadFigure[] = [await readLoad(server.baseUrl, CONSTANT, undefined, options)];
      for (const read of READS) reads.push(await readLoad(server.baseUrl, read, cookies[read.as], options));
      options.log(`year bench, ${events} events: ${JSON.stringify(reads)}`);
      // The commands at this size of history: every shift given to the load is taken, none is left open.
      const pairs = options.connections < 10 ? 20 : 150;
      const claimants = await eventSourcedClaimants(db.runtime, server.baseUrl, 1, pairs);
      const lagClaimants = await eventSourcedClaimants(db.runtime, server.baseUrl, 1, pairs / 2);
      await settled(server.baseUrl, db.runtime.sql, options.settleSeconds);
      const commands = await claimLoad(
        server.baseUrl,
        eventSourcedPaths,
        claimants,
        1,
        options.durationSeconds,
      );
      const lag = await readYourWritesLag(
        server.baseUrl,
        lagClaimants.queues[0]!,
        pairs / 2,
        undefined,
        undefined,
        db.url,
      );
      options.log(`year bench, ${events} events, one client: ${JSON.stringify({ commands, lag })}`);
      stages.push({ events, shifts: count?.shifts ?? 0, settled: caughtUp, reads, commands, lag });
      if (year.done) break;
    }
    return {
      residences: residences.length,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      fillSeconds: Math.round(fillSeconds),
      stages,
    };
  } finally {
    for (const part of started.reverse()) await part.stop();
    await db.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function createResidences(
  runtime: Awaited<ReturnType<typeof benchDatabase>>['runtime'],
  count: number,
) {
  const service = createCommandService(runtime.handler, runtime.vault);
  const names: string[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `Residence ${String(i).padStart(2, '0')}`;
    await service.residences.execute(
      {
        type: 'CreateResidence',
        data: { residenceId: randomUUID(), name, description: null, address: null },
      },
      { actor: system, now: new Date() },
      { commandId: randomUUID() },
    );
    names.push(name);
  }
  return names;
}

async function readLoad(
  baseUrl: string,
  read: { name: string; path: string },
  cookie: string | undefined,
  { connections, durationSeconds }: Pick<YearOptions, 'connections' | 'durationSeconds'>,
): Promise<ReadFigure> {
  const headers = { 'accept-encoding': 'gzip', ...(cookie ? { cookie } : {}) };
  // One read first, so that the measured run does not include the first answer's warm-up.
  await fetch(`${baseUrl}${read.path}`, { headers }).then((response) => response.arrayBuffer());
  const result = await autocannon({
    url: `${baseUrl}${read.path}`,
    connections,
    duration: durationSeconds,
    headers,
  });
  return {
    name: read.name,
    path: read.path,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    bytesPerResponse: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

/** The figures as a section of BENCHMARKS.md: one table of p99s by store size, and the 3× goal. */
export function renderYearSection(figures: YearFigures): string {
  const last = figures.stages.at(-1);
  if (!last) return '';
  const names = last.reads.map((read) => read.name);
  const header = `| read | ${figures.stages.map((stage) => `${stage.events.toLocaleString('en-US')} events`).join(' | ')} |`;
  const rows = names.map((name) => {
    const cells = figures.stages.map((stage) => {
      const read = stage.reads.find((r) => r.name === name);
      return read ? `${read.p99} ms (p50 ${read.p50}, ${read.requestsPerSecond}/s)` : '—';
    });
    return `| ${name} | ${cells.join(' | ')} |`;
  });
  rows.push(
    `| Claim + approve, one client | ${figures.stages.map(({ commands: c }) => `${c.p99} ms (p50 ${c.p50}, ${c.pairsPerSecond} pairs/s)`).join(' | ')} |`,
    `| Read-your-writes lag, one client: the read model | ${figures.stages.map(({ lag }) => (lag.readModel ? `${lag.readModel.p99} ms (p50 ${lag.readModel.p50})` : '—')).join(' | ')} |`,
    `| Read-your-writes lag, one client: the read that shows it | ${figures.stages.map(({ lag }) => `${lag.p99} ms (p50 ${lag.p50})`).join(' | ')} |`,
  );
  const bare = last.reads[0]!;
  const goal = last.reads.slice(1).map((read) => {
    const ratio = read.p99 / Math.max(1, bare.p99);
    return `${read.name} ${ratio.toFixed(1)}× (${ratio <= 3 ? 'met' : '**missed**'})`;
  });
  const failures = figures.stages
    .flatMap((stage) => [...stage.reads, stage.commands])
    .reduce((sum, figure) => sum + figure.failures, 0);
  const unsettled = figures.stages.filter((stage) => !stage.settled).map((stage) => stage.events);
  return [
    `### Reads as the store grows to a year (${figures.residences} residences, ${last.shifts.toLocaleString('en-US')} shifts)`,
    '',
    `The year was written through the command handler in ${figures.fillSeconds} s (real deciders, 32 shifts at a time, while the server's projector followed). Each cell is a p99 (p50 and rate beside it): the reads at ${figures.connections} clients, ${figures.durationSeconds} s each, gzip; then, with the reads done, one client claiming and approving 150 shifts of its own (at most ${figures.durationSeconds} s), and the lag from a claim's answer to the read model's checkpoint past it and to the read that shows it. The bare route is registered in the product's own server process (\`BENCH_CONSTANT_ROUTE=true\`).`,
    '',
    `${header}`,
    `|---|${figures.stages.map(() => '---').join('|')}|`,
    ...rows,
    '',
    `Goal, each p99 at most 3× the bare route's at the year's size: ${goal.join('; ')}. Failed requests: ${failures}.${unsettled.length ? ` Measured before the server had digested the store at: ${unsettled.join(', ')} events.` : ''}`,
  ].join('\n');
}
