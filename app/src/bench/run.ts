import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_PAGE_SIZE } from '@shiftcover/read-api';
import type { Runtime } from '../runtime';
import { ChromiumUnavailable, ensureWebBuilt, requireChromium } from '../testing/chromium';
import { cpuOfTrees, cpuPer } from './cpu';
import { benchDatabase, createAccounts, freePort, postShifts, signIn, startProcess } from './harness';
import {
  HISTORY_SIZES,
  renderHistorySection,
  type StoredLoadFigure,
  scheduleHistory,
  storedLoads,
} from './history-bench';
import {
  claimLoad,
  crudClaimants,
  crudPaths,
  eventSourcedClaimants,
  eventSourcedPaths,
  meanLoad,
  readModelsCaughtUp,
  settled,
  shiftListLoad,
  vacuumed,
} from './http-bench';
import { crudRoutes, type LagFigures, lagOfRuns, lagSampler, readYourWritesLag } from './lag-sampler';
import { renderStoreResults, type StoreResults } from './store-bench';
import { firstScreenAssets, firstScreenPerformance, renderPerformance, timeToFirstRender } from './web-bench';
import { type DatabaseWrites, writesPer, writesSettled } from './writes';
import { AVAILABLE_SHIFTS_FIRST_PAGE, renderYearSection, yearReads } from './year-bench';

/**
 * Every benchmark of the product, against the real server in its own process:
 *   npm run bench                       full run, results written into BENCHMARKS.md
 *   npm run bench -- --smoke            a few seconds of each, nothing written (run by npm test)
 *   npm run bench -- --rebuild-events 1000000
 *   npm run bench -- --year             the reads on a store growing to a year (a long run of its own)
 *   npm run bench -- --history          a claim's reservation by the length of a person's history (seconds)
 */
const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    'rebuild-events': { type: 'string', default: '100000' },
    year: { type: 'boolean', default: false },
    history: { type: 'boolean', default: false },
  },
});
const smoke = values.smoke;
const duration = smoke ? 1 : Number(values.duration);
// The smoke run shares the machine with the rest of the tests: it waits for the backlog only briefly.
const settleSeconds = smoke ? 5 : 120;
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const log = (text: string) => process.stdout.write(`${text}\n`);

// The schedule decider alone: no server, database or browser, and measured while none is running.
const historyDecisions = smoke ? 200 : 10_000;
const scheduleByHistory = () => {
  const figures = scheduleHistory(smoke ? [0, 50] : HISTORY_SIZES, historyDecisions);
  log(`schedule by history: ${JSON.stringify(figures)}`);
  return figures;
};
// The same schedules loaded by the command handler from the database, read whole and from a snapshot.
const storedLoadRuns = smoke ? 2 : 10;
const storedByHistory = async (runtime: Runtime) => {
  const figures = await storedLoads(runtime, smoke ? [0, 50, 600] : HISTORY_SIZES, storedLoadRuns);
  log(`stored loads by history: ${JSON.stringify(figures)}`);
  return figures;
};
if (values.history) {
  const figures = scheduleByHistory();
  const historyDb = await benchDatabase();
  let stored: StoredLoadFigure[];
  try {
    stored = await storedByHistory(historyDb.runtime);
  } finally {
    await historyDb.stop();
  }
  await writeSection('history', renderHistorySection(figures, historyDecisions, stored, storedLoadRuns));
  process.exit(0);
}

try {
  // The web figures need a browser: without one the bench stops before it starts anything.
  requireChromium();
} catch (error) {
  if (!(error instanceof ChromiumUnavailable)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
ensureWebBuilt();

if (values.year || smoke) {
  // A year for 50 residences; the smoke run writes a few days of one residence.
  const year = await yearReads({
    residences: smoke ? 1 : 50,
    pastDays: smoke ? 3 : 351,
    upcomingDays: smoke ? 2 : 14,
    stages: smoke ? [] : [10_000, 100_000],
    connections: smoke ? 4 : 100,
    durationSeconds: duration,
    settleSeconds: smoke ? settleSeconds : 1800,
    log,
  });
  if (values.year) {
    await writeSection('year', renderYearSection(year));
    process.exit(0);
  }
}

const history = scheduleByHistory();
const db = await benchDatabase();
// The server's own nats-server keeps its storage apart from the ./.data of a developer's npm start.
const dataDir = await mkdtemp(path.join(tmpdir(), 'shiftcover-bench-data-'));
const results: Record<string, unknown> = {};
let storedHistory: StoredLoadFigure[] = [];
// What was started, stopped in the end whether or not the rest started.
const started: Array<{ stop(): Promise<void> }> = [];
try {
  // First, while nothing else runs on the database.
  storedHistory = await storedByHistory(db.runtime);
  const server = await startProcess(
    'app/src/main.ts',
    // A bare route in the same process, returning a constant: the reference for the reads.
    { DATABASE_URL: db.url, DATA_DIR: dataDir, BENCH_CONSTANT_ROUTE: 'true' },
    await freePort(),
  );
  started.push(server);
  const crud = await startProcess('app/src/bench/crud-server.ts', { DATABASE_URL: db.url }, await freePort());
  started.push(crud);
  // Reads first, on a store holding exactly the shifts the target names.
  const listSize = smoke ? 200 : 10_000;
  await postShifts(db.runtime, listSize, 100_000);
  const [reader] = await createAccounts(db.runtime, 'staff', 1, 'bench-reader');
  const readerCookie = await signIn(server.baseUrl, reader!.username);
  await settled(server.baseUrl, db.runtime.sql, settleSeconds);
  await vacuumed(db.runtime.sql);
  await fetch(`${server.baseUrl}/api/shifts`, { headers: { cookie: readerCookie } }); // warm-up
  // What the Available Shifts screen asks first (as the year's reads do), then the call without
  // paging parameters, whose default page is five times larger (what an API client gets).
  const reads = await shiftListLoad(
    server.baseUrl,
    readerCookie,
    smoke ? 4 : 100,
    duration,
    AVAILABLE_SHIFTS_FIRST_PAGE,
  );
  const defaultPage = smoke
    ? undefined
    : await shiftListLoad(server.baseUrl, readerCookie, 100, duration, '/api/shifts');
  const bare = await shiftListLoad(
    server.baseUrl,
    readerCookie,
    smoke ? 4 : 100,
    duration,
    '/bench/constant',
  );
  results.reads = { shifts: listSize, ...reads, bare, defaultPage };
  log(
    `GET ${AVAILABLE_SHIFTS_FIRST_PAGE}, ${listSize} shifts: ${JSON.stringify(reads)}${defaultPage ? ` | GET /api/shifts ${JSON.stringify(defaultPage)}` : ''} | bare route ${JSON.stringify(bare)}`,
  );
  if (!smoke) {
    // Lighthouse loads each page several times over: a minute the smoke run does without. It reads
    // Available Shifts here, with the list's shifts open, before the command runs add their own.
    await settled(server.baseUrl, db.runtime.sql, settleSeconds);
    results.lighthouse = await firstScreenPerformance(server.baseUrl, readerCookie);
    log(renderPerformance(results.lighthouse as Awaited<ReturnType<typeof firstScreenPerformance>>));
  }

  const commands = [];
  const loaded = smoke ? 4 : 64;
  // Two more staff members claim and read back beside the heaviest load, one in each of the
  // event-sourced server's two runs at it: read-your-writes under that load, from both runs.
  const loadedLagClaimants = await eventSourcedClaimants(db.runtime, server.baseUrl, 2, smoke ? 20 : 600);
  const loadedLags: LagFigures[] = [];
  for (const connections of smoke ? [1, 4] : [1, 16, 64]) {
    const perStaff = Math.ceil((smoke ? 100 : 9000) / connections) + 20;
    const claimants = await eventSourcedClaimants(db.runtime, server.baseUrl, connections, perStaff);
    await settled(server.baseUrl, db.runtime.sql, settleSeconds);
    await vacuumed(db.runtime.sql);
    const sampler = connections === loaded ? await lagSampler() : undefined;
    const load = claimLoad(server.baseUrl, eventSourcedPaths, claimants, connections, duration);
    if (sampler) {
      loadedLags.push(
        await sampler.sample(
          server.baseUrl,
          loadedLagClaimants.queues[0]!,
          smoke ? 20 : 600,
          load,
          undefined,
          db.url,
        ),
      );
      results.loadedLag = lagOfRuns(loadedLags);
      log(`read-your-writes lag under ${connections} clients: ${renderLag(loadedLags[0]!)}`);
    }
    const es = await load;
    await readModelsCaughtUp(db.runtime.sql);
    // The baseline runs once the event-sourced server has done all the work its run caused.
    if (connections === loaded) await settled(server.baseUrl, db.runtime.sql, settleSeconds);
    const rows = await crudClaimants(db.runtime, connections, perStaff * 3);
    // The same read-back beside the baseline's own load: there the claim is its row, so what it
    // measures is a read's own wait on this machine under that load, the floor of any lag.
    const crudLagRows =
      connections === loaded ? await crudClaimants(db.runtime, 1, smoke ? 20 : 600) : undefined;
    await settled(crud.baseUrl, db.runtime.sql, settleSeconds);
    await vacuumed(db.runtime.sql);
    const crudSampler = crudLagRows ? await lagSampler() : undefined;
    const baselineLoad = claimLoad(crud.baseUrl, crudPaths, rows, connections, duration);
    if (crudSampler) {
      results.baselineLag = await crudSampler.sample(
        crud.baseUrl,
        crudLagRows!.queues[0]!,
        smoke ? 20 : 600,
        baselineLoad,
        crudRoutes,
      );
      log(
        `the baseline's read-back under ${connections} clients: ${renderLag(results.baselineLag as LagFigures)}`,
      );
    }
    const baseline = await baselineLoad;
    log(
      `claim + approve, ${connections} clients: event-sourced ${JSON.stringify(es)} | CRUD ${JSON.stringify(baseline)}`,
    );
    if (connections !== loaded || smoke) {
      commands.push({ connections, eventSourced: es, baseline });
      continue;
    }
    // The goal's load once more, the other way round (baseline first): the two servers' figures
    // are each the mean of two runs, so neither is favoured by the machine's drift over the four.
    // These two runs also count the CPU time each server, its PostgreSQL and (for the product) its
    // nats-server spend per pair, from the run's start until the server has done all the work the
    // run caused: the read models, mail and JetStream included, however long after the load.
    const trees = () =>
      cpuOfTrees({ server: server.child.pid, baseline: crud.child.pid, postgres: db.postmasterPid() });
    const crudAgain = await crudClaimants(db.runtime, connections, perStaff * 3);
    await settled(crud.baseUrl, db.runtime.sql, settleSeconds);
    await vacuumed(db.runtime.sql);
    const baselineWritten = await writesSettled(db.runtime.sql);
    const baselineBefore = trees();
    const baselineAgain = await claimLoad(crud.baseUrl, crudPaths, crudAgain, connections, duration);
    await settled(crud.baseUrl, db.runtime.sql, settleSeconds);
    const baselineCpu = cpuPer(baselineBefore, trees(), baselineAgain.pairsPerSecond * duration);
    const baselineWrites = writesPer(
      baselineWritten,
      await writesSettled(db.runtime.sql),
      baselineAgain.pairsPerSecond * duration,
    );
    const esAgainClaimants = await eventSourcedClaimants(db.runtime, server.baseUrl, connections, perStaff);
    await settled(server.baseUrl, db.runtime.sql, settleSeconds);
    await vacuumed(db.runtime.sql);
    const againSampler = await lagSampler();
    const esWritten = await writesSettled(db.runtime.sql);
    const esBefore = trees();
    const esAgainLoad = claimLoad(server.baseUrl, eventSourcedPaths, esAgainClaimants, connections, duration);
    loadedLags.push(
      await againSampler.sample(
        server.baseUrl,
        loadedLagClaimants.queues[1]!,
        600,
        esAgainLoad,
        undefined,
        db.url,
      ),
    );
    results.loadedLag = lagOfRuns(loadedLags);
    log(`read-your-writes lag under ${connections} clients, again: ${renderLag(loadedLags[1]!)}`);
    const esAgain = await esAgainLoad;
    await readModelsCaughtUp(db.runtime.sql);
    await settled(server.baseUrl, db.runtime.sql, settleSeconds);
    const esCpu = cpuPer(esBefore, trees(), esAgain.pairsPerSecond * duration);
    const esWrites = writesPer(
      esWritten,
      await writesSettled(db.runtime.sql),
      esAgain.pairsPerSecond * duration,
    );
    log(
      `claim + approve, ${connections} clients, again: CRUD ${JSON.stringify(baselineAgain)} | event-sourced ${JSON.stringify(esAgain)}; CPU ms per pair: CRUD ${JSON.stringify(baselineCpu)} | event-sourced ${JSON.stringify(esCpu)}`,
    );
    commands.push({
      connections,
      eventSourced: meanLoad(es, esAgain),
      baseline: meanLoad(baseline, baselineAgain),
      runs: { eventSourced: [es, esAgain], baseline: [baseline, baselineAgain] },
      ...(esCpu && baselineCpu ? { cpu: { eventSourced: esCpu, baseline: baselineCpu } } : {}),
      ...(esWrites && baselineWrites ? { writes: { eventSourced: esWrites, baseline: baselineWrites } } : {}),
    });
  }
  results.commands = commands;

  const lagClaimants = await eventSourcedClaimants(db.runtime, server.baseUrl, 1, smoke ? 20 : 300);
  await settled(server.baseUrl, db.runtime.sql, settleSeconds);
  await vacuumed(db.runtime.sql);
  results.lag = await readYourWritesLag(
    server.baseUrl,
    lagClaimants.queues[0]!,
    smoke ? 20 : 300,
    undefined,
    undefined,
    db.url,
  );
  log(`read-your-writes lag: ${renderLag(results.lag as LagFigures)}`);

  // The browser's figures are taken with the server idle again, as a visitor would find it.
  await settled(server.baseUrl, db.runtime.sql, settleSeconds);
  results.webAssets = await firstScreenAssets(server.baseUrl);
  results.firstRender = await timeToFirstRender(server.baseUrl, smoke ? 1 : 7);
  log(`web: ${JSON.stringify(results.webAssets)} ${JSON.stringify(results.firstRender)}`);
} finally {
  for (const part of started.reverse()) await part.stop();
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
}

const rebuildEvents = smoke ? '3000' : values['rebuild-events'];
const rebuildOutput = execFileSync(
  process.execPath,
  ['--import', 'tsx', 'app/src/bench/rebuild.ts', '--events', rebuildEvents],
  {
    cwd: ROOT,
    encoding: 'utf8',
  },
);
results.rebuild = { events: Number(rebuildEvents), output: rebuildOutput.trim().split('\n') };
log(rebuildOutput);
if (!rebuildOutput.includes('identical')) throw new Error('rebuilt read models differ from the live ones');

// ---- The event store side by side with a peer (store-bench.ts), on a PostgreSQL of its own. ----
const storeOutput = execFileSync(
  process.execPath,
  ['--import', 'tsx', 'app/src/bench/store-bench.ts', ...(smoke ? ['--smoke'] : [])],
  { cwd: ROOT, encoding: 'utf8' },
);
log(storeOutput.trim());
const storeLine = storeOutput.split('\n').find((line) => line.startsWith('store results: '));
if (!storeLine) throw new Error('the store bench printed no results');
const storeResults = JSON.parse(storeLine.slice('store results: '.length)) as StoreResults;
// ---- end of the store bench ----

if (!smoke) {
  await writeSection('results', `${renderResults(results)}\n\n${renderStoreResults(storeResults)}`);
  await writeSection(
    'history',
    renderHistorySection(history, historyDecisions, storedHistory, storedLoadRuns),
  );
}
/** Rewrites the part of BENCHMARKS.md between `<!-- name:start -->` and `<!-- name:end -->`, adding it when missing. */
async function writeSection(name: string, markdown: string) {
  const file = `${ROOT}/BENCHMARKS.md`;
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const current = existsSync(file) ? await readFile(file, 'utf8') : '# Benchmarks\n';
  const section = `${start}\n${markdown}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*${end}`);
  await writeFile(
    file,
    pattern.test(current) ? current.replace(pattern, section) : `${current.trimEnd()}\n\n${section}\n`,
  );
  log(`results written to ${file}`);
}

/** Lag figures for the log, without the times themselves. */
function renderLag({ times: _times, ...figures }: LagFigures): string {
  return JSON.stringify(figures);
}

/** CPU milliseconds per pair by process tree (`server`, `baseline`, `postgres`), for each server's run. */
type CpuPerPair = { eventSourced: Record<string, number>; baseline: Record<string, number> };

/**
 * What one claim + approve pair cost each server in CPU time, the work it left behind included: on
 * a machine whose cores the servers, PostgreSQL and the load generator share, the baseline's total
 * over the event-sourced one is about the most the ratio of their pairs/s can reach.
 */
function renderCpu({ eventSourced, baseline }: CpuPerPair): string {
  const ms = (value: number | undefined) => (value === undefined ? 'not measured' : `${value.toFixed(2)} ms`);
  const total = (figures: Record<string, number>, server: string) =>
    (figures[server] ?? 0) + (figures.postgres ?? 0);
  const es = total(eventSourced, 'server');
  const crud = total(baseline, 'baseline');
  return `CPU time per pair in the second run of each, from its start until the server had done all the work it caused (read models, mail and JetStream included): event-sourced server with its projector thread and nats-server ${ms(eventSourced.server)}, PostgreSQL ${ms(eventSourced.postgres)}, together ${ms(es)}; CRUD baseline server ${ms(baseline.baseline)}, PostgreSQL ${ms(baseline.postgres)}, together ${ms(crud)}. The baseline's total ÷ the event-sourced: ${(crud / Math.max(0.001, es)).toFixed(2)}, about the most the pairs/s ratio can reach while both share this machine's cores.`;
}

function renderWrites({
  eventSourced,
  baseline,
}: {
  eventSourced: DatabaseWrites;
  baseline: DatabaseWrites;
}): string {
  const wrote = (w: DatabaseWrites) =>
    `${w.rows.toFixed(1)} rows (${w.hotUpdates.toFixed(1)} of them updates in place, HOT), at most ${w.indexEntries.toFixed(1)} index entries, ${w.commits.toFixed(1)} commits and ${(w.walBytes / 1024).toFixed(1)} KiB of write-ahead log`;
  return `What PostgreSQL wrote per pair in the same runs, from its statistics: event-sourced ${wrote(eventSourced)} (the events, the streams' revisions, the read models, their checkpoints and mail's; the read-back sampler's own claims included); CRUD baseline ${wrote(baseline)}. The event-sourced pair's rows ÷ the baseline's: ${(eventSourced.rows / Math.max(0.01, baseline.rows)).toFixed(1)}, its index entries ÷ the baseline's: ${(eventSourced.indexEntries / Math.max(0.01, baseline.indexEntries)).toFixed(1)}.`;
}

function renderResults(r: Record<string, unknown>): string {
  type Figures = { pairsPerSecond: number; p50: number; p99: number; failures: number };
  const commands = r.commands as {
    connections: number;
    eventSourced: Figures;
    baseline: Figures;
    runs?: { eventSourced: Figures[]; baseline: Figures[] };
    cpu?: CpuPerPair;
    writes?: { eventSourced: DatabaseWrites; baseline: DatabaseWrites };
  }[];
  type ReadFigures = {
    connections: number;
    requestsPerSecond: number;
    p50: number;
    p99: number;
    failures: number;
    bytesPerResponse: number;
  };
  const reads = r.reads as ReadFigures & { shifts: number; bare: ReadFigures; defaultPage?: ReadFigures };
  const modelLag = (l: LagFigures) =>
    l.readModel
      ? `the read model had the claim p50 ${l.readModel.p50} ms, p99 ${l.readModel.p99} ms, max ${l.readModel.max} ms after its answer (${l.readModel.samples} samples)`
      : "the read model's lag not heard";
  const lag = r.lag as LagFigures;
  const loadedLag = r.loadedLag as LagFigures;
  const baselineLag = r.baselineLag as LagFigures;
  const assets = r.webAssets as { js: { raw: number; gzip: number }; css: { raw: number; gzip: number } };
  const render = r.firstRender as { runs: number; firstContentfulPaintMs: number; landingReadyMs: number };
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const at64 = commands.find((c) => c.connections === 64);
  const at1 = commands.find((c) => c.connections === 1);
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, embedded PostgreSQL with its durable defaults (fsync, synchronous commit and full-page writes on); server, baseline and load generator on the same machine.`,
    `Command: \`npm run bench\` (${duration} s per load run; rebuild over ${r.rebuild && (r.rebuild as { events: number }).events} events).`,
    '',
    '### Claim + approve (autocannon, real HTTP, sessions, permission checks)',
    '',
    '| clients | event-sourced pairs/s | p50 ms | p99 ms | CRUD baseline pairs/s | p50 ms | p99 ms | ES / baseline |',
    '|---|---|---|---|---|---|---|---|',
    ...commands.map(
      (c) =>
        `| ${c.connections} | ${c.eventSourced.pairsPerSecond} | ${c.eventSourced.p50} | ${c.eventSourced.p99} | ${c.baseline.pairsPerSecond} | ${c.baseline.p50} | ${c.baseline.p99} | ${(c.eventSourced.pairsPerSecond / Math.max(1, c.baseline.pairsPerSecond)).toFixed(2)} |`,
    ),
    '',
    `Failed requests: ${commands.map((c) => `${c.connections} clients ${c.eventSourced.failures} / ${c.baseline.failures}`).join('; ')}.`,
    ...commands
      .filter((c) => c.runs)
      .map(
        (c) =>
          `At ${c.connections} clients each server ran twice, in the order event-sourced, baseline, baseline, event-sourced, and the row gives the means: event-sourced ${c.runs!.eventSourced.map((f) => `${f.pairsPerSecond} pairs/s (p99 ${f.p99} ms)`).join(' and ')}, baseline ${c.runs!.baseline.map((f) => `${f.pairsPerSecond} pairs/s (p99 ${f.p99} ms)`).join(' and ')}.`,
      ),
    ...commands.filter((c) => c.cpu).map((c) => renderCpu(c.cpu!)),
    ...commands.filter((c) => c.writes).map((c) => renderWrites(c.writes!)),
    at64 && at1
      ? `Targets: at 64 clients at least 0.8× the baseline's pairs/s: ${verdict(at64.eventSourced.pairsPerSecond >= 0.8 * at64.baseline.pairsPerSecond)}, with a p99 at most 1.5× the baseline's: ${verdict(at64.eventSourced.p99 <= 1.5 * at64.baseline.p99)}; one client's p50 at most 3 ms per command: ${verdict(at1.eventSourced.p50 <= 3)}.`
      : '',
    '',
    `### The shift list with ${reads.shifts} open shifts at ${reads.connections} clients`,
    '',
    `Available Shifts' first page as the screen asks for it (\`GET ${AVAILABLE_SHIFTS_FIRST_PAGE}\`): ${reads.requestsPerSecond} requests/s, p50 ${reads.p50} ms, p99 ${reads.p99} ms, ${kb(reads.bytesPerResponse)} per response (gzip: the load generator sends \`accept-encoding: gzip\`, as browsers do), ${reads.failures} failures. A bare route of the same server returning a constant, at the same clients: ${reads.bare.requestsPerSecond} requests/s, p50 ${reads.bare.p50} ms, p99 ${reads.bare.p99} ms. The list's p99 ÷ the bare route's: ${(reads.p99 / Math.max(1, reads.bare.p99)).toFixed(1)} (goal at most 3: ${verdict(reads.p99 <= 3 * Math.max(1, reads.bare.p99))}).`,
    reads.defaultPage
      ? `\`GET /api/shifts\` without paging parameters (its default page of ${DEFAULT_PAGE_SIZE}, what an API client gets): ${reads.defaultPage.requestsPerSecond} requests/s, p50 ${reads.defaultPage.p50} ms, p99 ${reads.defaultPage.p99} ms, ${kb(reads.defaultPage.bytesPerResponse)} per response, ${reads.defaultPage.failures} failures; p99 ${(reads.defaultPage.p99 / Math.max(1, reads.bare.p99)).toFixed(1)}× the bare route's. Most of what it costs beyond the first page is the kernel moving a body four times larger over loopback, on the cores the load generator also uses.`
      : '',
    '',
    '### Read-your-writes lag (claim acknowledged → visible in the read API)',
    '',
    "Each sample claims a shift, then reads My Shifts naming the claim's position. Two times are taken from the claim's answer: until the shifts read model had applied it (the checkpoint's notice from PostgreSQL, heard by the sampler: how stale the read model was), and until the read answered with it (that, plus the read's own trip through the server).",
    '',
    `Alone: ${modelLag(lag)}; the read answered with it p50 ${lag.p50} ms, p99 ${lag.p99} ms, max ${lag.max} ms (${lag.samples} samples).`,
    `Beside the 64-client claim + approve load (one staff member sampling in each of the event-sourced server's two runs at it, their samples together): ${modelLag(loadedLag)}; the read answered with it p50 ${loadedLag.p50} ms, p99 ${loadedLag.p99} ms, max ${loadedLag.max} ms (${loadedLag.samples} samples)${loadedLag.failed.length ? `; ${loadedLag.failed.length} samples not taken (${loadedLag.failed.join(', ')})` : ''}. Goal p99 at most 50 ms under that load: the read model's lag ${verdict((loadedLag.readModel?.p99 ?? Number.POSITIVE_INFINITY) <= 50)}; the whole read ${verdict(loadedLag.p99 <= 50)}.`,
    `The CRUD baseline, the same claim then a read of the claimant's shifts beside its own 64-client load, ${baselineLag.samples} samples: p50 ${baselineLag.p50} ms, p99 ${baselineLag.p99} ms, max ${baselineLag.max} ms. Its claim is visible the moment it commits, so this is what the read alone costs under that load on this machine; the event-sourced lag ÷ the baseline's: p50 ${(loadedLag.p50 / Math.max(1, baselineLag.p50)).toFixed(2)}, p99 ${(loadedLag.p99 / Math.max(1, baselineLag.p99)).toFixed(2)}.`,
    '',
    '### Projection rebuild',
    '',
    '```',
    ...((r.rebuild as { output: string[] }).output ?? []).filter(
      (l) =>
        !l.includes(':') || ['rebuild', 'store', 'raw', 'live', 'goals'].some((start) => l.startsWith(start)),
    ),
    '```',
    '',
    '### Web, first screen',
    '',
    `JavaScript ${kb(assets.js.gzip)} gzip (${kb(assets.js.raw)} raw), CSS ${kb(assets.css.gzip)} gzip (${kb(assets.css.raw)} raw). In Chromium (375 px, local server, median of ${render.runs}): first contentful paint ${render.firstContentfulPaintMs} ms, landing page ready ${render.landingReadyMs} ms. Goal for the JavaScript and CSS, at most 150 KB gzip: ${verdict(assets.js.gzip + assets.css.gzip <= 150_000)}.`,
    '',
    renderPerformance(r.lighthouse as Awaited<ReturnType<typeof firstScreenPerformance>>),
  ];
  return lines.join('\n');
}
