import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { dumbo } from '@event-driven-io/dumbo';
import { isExpectedVersionConflictError } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore, readMessagesBatch } from '@event-driven-io/emmett-postgresql';
import { aShift } from '@shiftcover/domain/testing';
import {
  createPostgresEventStore,
  type EventMetadata,
  migrateEventStore,
  type NewEvent,
  WrongExpectedRevision,
} from '@shiftcover/eventstore';
import { connect } from '@shiftcover/platform';
import { startEmbeddedPostgres } from '@shiftcover/platform/embedded';
import pg from 'pg';
import type { Sql } from 'postgres';

/**
 * This event store side by side with a peer, Emmett's PostgreSQL event store, and with a plain
 * `INSERT` into a table of the same shape as ours, on one durable embedded PostgreSQL:
 *   npm run bench:store                 the full run (about four minutes)
 *   npm run bench:store -- --smoke      a few seconds of each step, once
 * Each contender gets a fresh database of its own for each repeat; the order of the contenders
 * turns from repeat to repeat, so none always runs on the coolest (or the warmest) machine. Every
 * figure is the median of the repeats. The last line printed is `store results: <json>`, which
 * `npm run bench` renders with `renderStoreResults` into BENCHMARKS.md.
 */

const CONTENDERS = ['shiftcover', 'emmett', 'raw insert'] as const;
type Contender = (typeof CONTENDERS)[number];
const WRITERS = 16;
const CONTENDED_STREAMS = 4;
/** The page size of every read of the whole log. */
const READ_BATCH = 500;
/** Every connection pool gets as many connections as there are writers, so none waits on its pool. */
const POOL_SIZE = WRITERS;

interface Settings {
  repeats: number;
  /** Seconds of each write step. */
  seconds: number;
  /** How many events are added to the log (to those the write steps left) before it is read whole. */
  logSize: number;
  /** The two log sizes the single writer's latency is compared at. */
  history: { small: number; large: number };
}

const FULL: Settings = {
  repeats: 3,
  seconds: 3,
  logSize: 50_000,
  history: { small: 10_000, large: 1_000_000 },
};
const SMOKE: Settings = {
  repeats: 1,
  seconds: 0.3,
  logSize: 2_000,
  history: { small: 1_000, large: 20_000 },
};

/** Latencies in milliseconds. */
interface Latency {
  p50: number;
  p99: number;
}

export interface StoreResults {
  settings: Settings;
  /** Per contender: 16 writers each on a stream of their own. */
  ownStreams: Record<Contender, { eventsPerSecond: number } & Latency>;
  /** Per contender: 16 writers on 4 streams, each append expecting the revision it read. */
  contended: Record<Contender, { eventsPerSecond: number; conflicts: number }>;
  /** Per contender: one writer, one append at a time. */
  single: Record<Contender, Latency>;
  /** Events per second reading the whole log in pages of 500. */
  readAll: { shiftcover: number; emmett: number; 'raw scan': number };
  /** This store's single-writer latency with a small and a large log behind it. */
  history: { small: Latency; large: Latency };
}

/** One contender's appends, in the terms every step uses: a stream's version is its event count. */
interface Appender {
  /** Appends `count` events to a stream holding `version` events; false when it holds another number. */
  append(stream: string, count: number, version: number): Promise<boolean>;
  /** The stream's current version, reading on from `known` (a version it had, or 0). */
  version(stream: string, known: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * A node-postgres pool for Emmett. An idle connection that the server ends (a database dropped, the
 * server stopped after a failed step) must not crash the bench and hide the failure that matters.
 */
function emmettPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {});
  return pool;
}

/** A realistic event: a claimed shift's details, with the metadata our command handler writes. */
function benchEvent(): NewEvent {
  const commandId = randomUUID();
  const metadata: EventMetadata = {
    commandId,
    correlationId: commandId,
    causationId: commandId,
    actorId: randomUUID(),
    actorRole: 'staff',
    actorSuperAdmin: false,
    schemaVersion: 1,
  };
  const data = { ...aShift({ location: 'Maple House' }), userId: randomUUID() } as Record<string, unknown>;
  return { id: randomUUID(), type: 'ShiftClaimed', data, metadata };
}

const batchOf = (count: number) => Array.from({ length: count }, benchEvent);

async function openShiftcover(url: string): Promise<Appender & { sql: Sql }> {
  const sql = connect(url, { max: POOL_SIZE });
  await migrateEventStore(sql);
  const store = createPostgresEventStore({ sql });
  return {
    sql,
    async append(stream, count, version) {
      try {
        await store.append(stream, batchOf(count), version === 0 ? 'no_stream' : BigInt(version - 1));
        return true;
      } catch (error) {
        if (error instanceof WrongExpectedRevision) return false;
        throw error;
      }
    },
    async version(stream, known) {
      const { revision } = await store.readStream(stream, { fromRevision: BigInt(Math.max(0, known - 1)) });
      return revision === 'no_stream' ? 0 : Number(revision) + 1;
    },
    close: () => sql.end(),
  };
}

async function openEmmett(url: string): Promise<Appender & { execute: ReturnType<typeof dumbo>['execute'] }> {
  const pool = emmettPool(url, POOL_SIZE);
  const store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
  await store.schema.migrate();
  return {
    execute: dumbo({ connectionString: url, pool }).execute,
    async append(stream, count, version) {
      const events = batchOf(count).map(({ id, type, data, metadata }) => ({
        type,
        data,
        metadata: { ...metadata, messageId: id },
      }));
      try {
        await store.appendToStream(stream, events, { expectedStreamVersion: BigInt(version) });
        return true;
      } catch (error) {
        // By its code: emmett-postgresql bundles a class of its own by the same name.
        if (isExpectedVersionConflictError(error)) return false;
        throw error;
      }
    },
    async version(stream, known) {
      const { currentStreamVersion } = await store.readStream(stream, { from: BigInt(known) });
      return Number(currentStreamVersion);
    },
    close: () => pool.end(),
  };
}

/** The floor: one `INSERT` into a table shaped like ours, its unique (stream, revision) the only check. */
async function openRawInsert(url: string): Promise<Appender> {
  const sql = connect(url, { max: POOL_SIZE });
  await sql`
    create table if not exists events (
      position bigint generated always as identity primary key,
      event_id uuid not null unique,
      stream_id text not null,
      revision bigint not null,
      type text not null,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default clock_timestamp(),
      unique (stream_id, revision)
    )`;
  return {
    async append(stream, count, version) {
      const rows = batchOf(count).map((event, i) => ({
        event_id: event.id,
        stream_id: stream,
        revision: version + i,
        type: event.type,
        data: sql.json(event.data as never),
        metadata: sql.json(event.metadata as never),
      }));
      try {
        await sql`insert into events ${sql(rows)}`;
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === '23505') return false;
        throw error;
      }
    },
    async version(stream) {
      const [row] = await sql<{ next: bigint }[]>`
        select coalesce(max(revision) + 1, 0) as next from events where stream_id = ${stream}`;
      return Number(row!.next);
    },
    close: () => sql.end(),
  };
}

const openers: Record<Contender, (url: string) => Promise<Appender>> = {
  shiftcover: openShiftcover,
  emmett: openEmmett,
  'raw insert': openRawInsert,
};

/** `writers` loops calling `step` until `seconds` have passed, each call timed. */
async function during(
  seconds: number,
  writers: number,
  step: (writer: number) => Promise<void>,
): Promise<{ calls: number; elapsedSeconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      while (performance.now() < until) {
        const before = performance.now();
        await step(writer);
        latencies.push(performance.now() - before);
      }
    }),
  );
  return { calls: latencies.length, elapsedSeconds: (performance.now() - started) / 1000, latencies };
}

function latencyOf(latencies: number[]): Latency {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: round(at(0.5), 2), p99: round(at(0.99), 2) };
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/**
 * A few appends from every writer before anything is measured, so that no step pays for opening
 * the pool's connections or for PostgreSQL's first planning of the statements.
 */
async function warmUp(store: Appender): Promise<void> {
  const run = randomUUID();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let version = 0; version < 5; version++) await store.append(`warm-${run}-${writer}`, 1, version);
    }),
  );
}

/** 16 writers, one stream each, one event per append. */
async function ownStreams(store: Appender, seconds: number) {
  const versions = new Array<number>(WRITERS).fill(0);
  const run = randomUUID();
  const { calls, elapsedSeconds, latencies } = await during(seconds, WRITERS, async (writer) => {
    if (!(await store.append(`own-${run}-${writer}`, 1, versions[writer]!)))
      throw new Error('lost its own stream');
    versions[writer]! += 1;
  });
  return { eventsPerSecond: round(calls / elapsedSeconds), ...latencyOf(latencies) };
}

/** 16 writers on 4 streams: read the stream's version, append expecting it, read again on a conflict. */
async function contendedStreams(store: Appender, seconds: number) {
  const known = new Array<number>(CONTENDED_STREAMS).fill(0);
  const run = randomUUID();
  let written = 0;
  let conflicts = 0;
  const { elapsedSeconds } = await during(seconds, WRITERS, async (writer) => {
    const slot = writer % CONTENDED_STREAMS;
    const stream = `contended-${run}-${slot}`;
    const version = await store.version(stream, known[slot]!);
    if (await store.append(stream, 1, version)) {
      written += 1;
      known[slot] = Math.max(known[slot]!, version + 1);
    } else {
      conflicts += 1;
    }
  });
  return { eventsPerSecond: round(written / elapsedSeconds), conflicts };
}

/** One writer appending one event at a time to a stream of its own. */
async function singleWriter(store: Appender, seconds: number): Promise<Latency> {
  const stream = `single-${randomUUID()}`;
  let version = 0;
  const { latencies } = await during(seconds, 1, async () => {
    if (!(await store.append(stream, 1, version))) throw new Error('lost its own stream');
    version += 1;
  });
  return latencyOf(latencies);
}

/** Appends `count` more events in batches of 500, four writers at once. */
async function fill(store: Appender, count: number): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      const stream = `fill-${randomUUID()}`;
      let version = 0;
      while (left > 0) {
        const count = Math.min(READ_BATCH, left);
        left -= count;
        await store.append(stream, count, version);
        version += count;
      }
    }),
  );
}

/** Pages through the whole log with `page` (the position after which to read), in events per second. */
async function readWhole(page: (after: bigint) => Promise<bigint[]>): Promise<number> {
  const started = performance.now();
  let after = 0n;
  let read = 0;
  for (;;) {
    const positions = await page(after);
    if (positions.length === 0) break;
    read += positions.length;
    after = positions.at(-1)!;
  }
  return round(read / ((performance.now() - started) / 1000));
}

const readers = {
  shiftcover: (url: string) => {
    const sql = connect(url, { max: 1 });
    const store = createPostgresEventStore({ sql });
    return {
      page: async (after: bigint) => (await store.readAll(after, READ_BATCH)).map((e) => e.position),
      close: () => sql.end(),
    };
  },
  emmett: (url: string) => {
    const pool = emmettPool(url, 1);
    const { execute } = dumbo({ connectionString: url, pool });
    return {
      page: async (after: bigint) =>
        (await readMessagesBatch(execute, { after, batchSize: READ_BATCH })).messages.map(
          (m) => m.metadata.globalPosition,
        ),
      close: () => pool.end(),
    };
  },
  /** The floor: a keyset scan of our events table, rows left as the driver gives them. */
  'raw scan': (url: string) => {
    const sql = connect(url, { max: 1 });
    return {
      page: async (after: bigint) =>
        (
          await sql<{ position: bigint }[]>`
            select * from events where position > ${after.toString()} order by position limit ${READ_BATCH}`
        ).map((row) => BigInt(row.position)),
      close: () => sql.end(),
    };
  },
};

/**
 * `count` realistic events written straight into our events table, ten to a stream, as history
 * behind the appends measured: the bench appends only to streams of its own, so the history needs
 * neither the store's stream bookkeeping nor its hash chain, only its size. Each statement is one
 * transaction of at most 100,000 events, placed as the store places an append's (positions from the
 * transaction's id, see eventstore/src/postgres).
 */
async function bulkHistory(sql: Sql, count: number): Promise<void> {
  const { data, metadata, type } = benchEvent();
  const chunk = 100_000;
  const chunks = Array.from({ length: Math.ceil(count / chunk) }, (_, i) => i * chunk);
  const insertChunk = (from: number) => sql`
    insert into events (position, event_id, stream_id, revision, type, data, metadata)
    select pg_current_xact_id()::text::bigint * 1048576 + eventstore_position_base() + (g - ${from}),
           gen_random_uuid(), 'history-' || (g / 10), g % 10, ${type},
           ${sql.json(data as never)}, ${sql.json(metadata as never)}
    from generate_series(${from}::bigint, ${Math.min(count, from + chunk) - 1}::bigint) g`;
  // Two statements at a time: the machine has two cores.
  for (let i = 0; i < chunks.length; i += 2) await Promise.all(chunks.slice(i, i + 2).map(insertChunk));
  // What a year of appends leaves behind, not what writing it in seconds does: the table vacuumed
  // and analysed as autovacuum would have, and its write-ahead log checkpointed, so that neither
  // autovacuum nor a checkpoint forced by the bulk write's gigabyte of log runs during the appends
  // measured (each page first written after a checkpoint is logged whole).
  await sql`vacuum analyze events`;
  await sql`checkpoint`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of each numeric field over the repeats. */
function medianOf<T extends { [K in keyof T]: number }>(runs: T[]): T {
  const keys = Object.keys(runs[0]!) as (keyof T)[];
  return Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key] as number))])) as T;
}

/** Repeat `r` runs the contenders in a turned order: A B C, then B C A, then C A B. */
const turned = <T>(list: readonly T[], r: number) => [
  ...list.slice(r % list.length),
  ...list.slice(0, r % list.length),
];

async function runStoreBench(settings: Settings, log: (line: string) => void): Promise<StoreResults> {
  const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-store-bench-'));
  // As root the server runs as the `postgres` user, which must be able to enter the folder.
  await chmod(root, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(root, 'pg'),
    ephemeral: true,
    durable: true,
  });
  const admin = connect(server.url, { max: 1 });
  const freshDatabase = async (name: string) => {
    await admin.unsafe(`create database ${name}`);
    const url = new URL(server.url);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const dropDatabase = (name: string) => admin.unsafe(`drop database ${name} with (force)`);

  const writes = mapContenders(() => ({
    own: [] as StoreResults['ownStreams'][Contender][],
    contended: [] as StoreResults['contended'][Contender][],
    single: [] as Latency[],
  }));
  const reads: Record<keyof StoreResults['readAll'], number[]> = {
    shiftcover: [],
    emmett: [],
    'raw scan': [],
  };
  try {
    for (let r = 0; r < settings.repeats; r++) {
      for (const contender of turned(CONTENDERS, r)) {
        const name = `bench_${contender.replace(' ', '_')}_${r}`;
        const url = await freshDatabase(name);
        const store = await openers[contender](url);
        const figures = writes[contender];
        await warmUp(store);
        figures.own.push(await ownStreams(store, settings.seconds));
        figures.contended.push(await contendedStreams(store, settings.seconds));
        figures.single.push(await singleWriter(store, settings.seconds));
        log(
          `store bench, repeat ${r + 1}, ${contender}: own streams ${JSON.stringify(figures.own.at(-1))}, contended ${JSON.stringify(figures.contended.at(-1))}, single writer ${JSON.stringify(figures.single.at(-1))}`,
        );
        if (contender !== 'raw insert') {
          await fill(store, settings.logSize);
          const pairs =
            contender === 'shiftcover' ? (['shiftcover', 'raw scan'] as const) : (['emmett'] as const);
          for (const reader of turned(pairs, r)) {
            const opened = readers[reader](url);
            reads[reader].push(await readWhole(opened.page));
            await opened.close();
          }
        }
        await store.close();
        await dropDatabase(name);
      }
    }
    log(`store bench, read all: ${JSON.stringify(reads)}`);

    const history = await historyLatency(settings, freshDatabase, log);
    return {
      settings,
      ownStreams: mapContenders((c) => medianOf(writes[c].own)),
      contended: mapContenders((c) => medianOf(writes[c].contended)),
      single: mapContenders((c) => medianOf(writes[c].single)),
      readAll: {
        shiftcover: median(reads.shiftcover),
        emmett: median(reads.emmett),
        'raw scan': median(reads['raw scan']),
      },
      history,
    };
  } finally {
    await admin.end();
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }
}

const mapContenders = <T>(figure: (c: Contender) => T) =>
  Object.fromEntries(CONTENDERS.map((c) => [c, figure(c)])) as Record<Contender, T>;

/** This store's single writer with a small and with a large log behind it, the two taking turns. */
async function historyLatency(
  settings: Settings,
  freshDatabase: (name: string) => Promise<string>,
  log: (line: string) => void,
): Promise<StoreResults['history']> {
  const sizes = ['small', 'large'] as const;
  const stores = {} as Record<(typeof sizes)[number], Awaited<ReturnType<typeof openShiftcover>>>;
  for (const size of sizes) {
    const started = performance.now();
    stores[size] = await openShiftcover(await freshDatabase(`bench_history_${size}`));
    await bulkHistory(stores[size].sql, settings.history[size]);
    log(
      `store bench, ${settings.history[size]} events of history written in ${round((performance.now() - started) / 1000, 1)} s`,
    );
  }
  const runs: Record<(typeof sizes)[number], Latency[]> = { small: [], large: [] };
  for (const store of Object.values(stores)) await warmUp(store);
  for (let r = 0; r < settings.repeats; r++) {
    for (const size of turned(sizes, r)) runs[size].push(await singleWriter(stores[size], settings.seconds));
  }
  for (const store of Object.values(stores)) await store.close();
  const figures = { small: medianOf(runs.small), large: medianOf(runs.large) };
  log(`store bench, single writer over history: ${JSON.stringify(figures)}`);
  return figures;
}

/** The results as a section of BENCHMARKS.md. */
export function renderStoreResults(r: StoreResults): string {
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const ours = (c: Contender) => (c === 'shiftcover' ? '**shiftcover**' : c);
  const writeRows = CONTENDERS.map((c) => {
    const own = r.ownStreams[c];
    const contended = r.contended[c];
    const single = r.single[c];
    return `| ${ours(c)} | ${own.eventsPerSecond} | ${own.p50} | ${own.p99} | ${contended.eventsPerSecond} | ${contended.conflicts} | ${single.p50} | ${single.p99} |`;
  });
  /**
   * Each write figure of ours against `peer`'s, in the table's column order: rates ours ÷ theirs,
   * latencies theirs ÷ ours, so above 1 favours this store either way.
   */
  const writeRatios = (peer: Contender) => {
    const [own, theirOwn] = [r.ownStreams.shiftcover, r.ownStreams[peer]];
    const [single, theirSingle] = [r.single.shiftcover, r.single[peer]];
    return [
      own.eventsPerSecond / theirOwn.eventsPerSecond,
      theirOwn.p50 / own.p50,
      theirOwn.p99 / own.p99,
      r.contended.shiftcover.eventsPerSecond / r.contended[peer].eventsPerSecond,
      theirSingle.p50 / single.p50,
      theirSingle.p99 / single.p99,
    ];
  };
  const ratioRow = (peer: Contender) => {
    const cells = writeRatios(peer).map((x) => x.toFixed(2));
    // No ratio of conflicts: fewer of them is not the store's merit but the timing's.
    cells.splice(4, 0, '');
    return `| shiftcover vs ${peer} | ${cells.join(' | ')} |`;
  };
  const historyRatio = r.history.large.p99 / r.history.small.p99;
  const readVsScan = r.readAll.shiftcover / r.readAll['raw scan'];
  const { repeats, seconds, logSize, history } = r.settings;
  return [
    '### Event store side by side (`npm run bench:store`)',
    '',
    `One durable embedded PostgreSQL; each contender in a fresh database of its own for each of ${repeats} repeats, the contenders taking turns in a changing order; each figure is the median of the repeats, ${seconds} s per write step, one event per append, ${WRITERS} connections per pool. Emmett is \`@event-driven-io/emmett-postgresql\`; "raw insert" is one \`INSERT\` into a plain table of our events table's shape, its unique (stream, revision) the only check.`,
    '',
    `| store | own streams events/s | p50 ms | p99 ms | ${CONTENDED_STREAMS} contended streams events/s | conflicts | single writer p50 ms | p99 ms |`,
    '|---|---|---|---|---|---|---|---|',
    ...writeRows,
    ratioRow('emmett'),
    ratioRow('raw insert'),
    '',
    'Ratios: rates are ours ÷ theirs, latencies theirs ÷ ours, so above 1 favours this store either way.',
    `Targets: every write figure at least Emmett's (ratio ≥ 1.0): ${verdict(writeRatios('emmett').every((x) => x >= 1))}; at least half the raw insert's (≥ 0.5): ${verdict(writeRatios('raw insert').every((x) => x >= 0.5))}.`,
    '',
    `Reading the whole log (the write steps' events and ${logSize} more) in pages of ${READ_BATCH}: shiftcover \`readAll\` ${r.readAll.shiftcover} events/s, Emmett \`readMessagesBatch\` ${r.readAll.emmett} events/s, a raw keyset scan of our events table ${r.readAll['raw scan']} events/s; ours ÷ raw scan ${readVsScan.toFixed(2)} (target ≥ 0.8: ${verdict(readVsScan >= 0.8)}), ours ÷ Emmett ${(r.readAll.shiftcover / r.readAll.emmett).toFixed(2)}.`,
    '',
    `Single writer with history behind it (written in bulk, the measured appends through the store): ${history.small} events p50 ${r.history.small.p50} ms, p99 ${r.history.small.p99} ms; ${history.large} events p50 ${r.history.large.p50} ms, p99 ${r.history.large.p99} ms; p99 ratio ${historyRatio.toFixed(2)}× (target ≤ 1.2×: ${verdict(historyRatio <= 1.2)}).`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
  const results = await runStoreBench(values.smoke ? SMOKE : FULL, (line) =>
    process.stdout.write(`${line}\n`),
  );
  process.stdout.write(`store results: ${JSON.stringify(results)}\n`);
}
