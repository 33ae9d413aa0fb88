import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type Actor,
  easternToday,
  nextDate,
  scheduleDecider,
  shiftDecider,
  streams,
  type TypedEvent,
} from '@shiftcover/domain';
import { aShift } from '@shiftcover/domain/testing';
import { connect } from '@shiftcover/platform';
import { startEmbeddedPostgres } from '@shiftcover/platform/embedded';
import { ProjectionRunner, projections, REBUILD_BATCH, rebuild } from '@shiftcover/projections';
import { installStore } from '@shiftcover/testing';

/**
 * Rebuild rate: fills a store with shifts that are posted, claimed, approved and completed (plus
 * their schedule reservations), brings every read model up live, rebuilds each from scratch, and
 * checks the rebuilt tables equal the live ones.
 */
const { values } = parseArgs({ options: { events: { type: 'string', default: '100000' } } });
const target = Number(values.events);

const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-bench-'));
// As root the server runs as the `postgres` user, which must be able to enter the folder.
await chmod(root, 0o755);
const dataDir = path.join(root, 'pg');
const embedded = process.env.DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres({ dataDir, ephemeral: true, durable: true });
const sql = connect(process.env.DATABASE_URL ?? embedded!.url, { max: 8 });
const { store, vault, handler } = await installStore(sql);

const admin: Actor = { kind: 'user', userId: 'bench-admin', role: 'admin', superAdmin: true };
const staff = Array.from({ length: 200 }, (_, i) => `bench-staff-${i}`);
const locations = ['Maple House', 'Oak Lodge', 'Cedar Grove', 'Day Program'];

let written = 0;
let date = easternToday(new Date());
const fillStarted = Date.now();
let n = 0;
while (written < target) {
  const jobs: Promise<void>[] = [];
  for (let k = 0; k < 16 && written < target; k++, n++) {
    if (n % staff.length === 0) date = nextDate(date);
    const shiftId = randomUUID();
    const userId = staff[n % staff.length]!;
    const start = new Date(`${date}T12:00:00Z`);
    const details = aShift({ shiftId, location: locations[n % locations.length]!, date });
    const posted = shiftDecider.decide({ type: 'PostShift', data: details }, shiftDecider.initialState(), {
      actor: admin,
      now: start,
    });
    const claimed = shiftDecider.decide(
      { type: 'ClaimShift', data: { shiftId } },
      posted.reduce(shiftDecider.evolve, shiftDecider.initialState()),
      { actor: { kind: 'user', userId, role: 'staff', superAdmin: false }, now: start },
    );
    const state = [...posted, ...claimed].reduce(shiftDecider.evolve, shiftDecider.initialState());
    const approved = shiftDecider.decide({ type: 'ApproveClaim', data: { shiftId } }, state, {
      actor: admin,
      now: start,
    });
    const events: TypedEvent[] = [...posted, ...claimed, ...approved];
    const context = { actor: admin, now: start };
    const trace = { commandId: randomUUID() };
    jobs.push(
      (async () => {
        await handler.append(streams.shift(shiftId), events, 'no_stream', context, trace);
        const reservation = scheduleDecider.decide(
          {
            type: 'ReserveTime',
            data: {
              userId,
              shiftId,
              start: start.toISOString(),
              end: start.toISOString(),
              label: { location: details.location, date, startTime: '08:00', endTime: '16:00' },
            },
          },
          scheduleDecider.initialState(),
          context,
        );
        await handler.append(
          `${streams.schedule(userId)}-${shiftId}`,
          reservation,
          'no_stream',
          context,
          trace,
        );
      })(),
    );
    written += events.length + 1;
  }
  await Promise.all(jobs);
}
const head = await store.headPosition();
console.log(`store filled: ${written} events in ${((Date.now() - fillStarted) / 1000).toFixed(1)} s`);

// The raw rate the log can be read at: a keyset scan of the events table in a rebuild's batches,
// rows left as the driver gives them (no conversion to events, no horizon).
let scanned = 0;
const scanStarted = Date.now();
for (let after = '0'; ; ) {
  const rows = await sql<{ position: string }[]>`
    select * from events where position > ${after} order by position limit ${REBUILD_BATCH}`;
  if (rows.length === 0) break;
  scanned += rows.length;
  after = String(rows.at(-1)!.position);
}
const rawRate = Math.round(scanned / ((Date.now() - scanStarted) / 1000));
console.log(`raw read of the events table: ${scanned} rows at ${rawRate} rows/s`);

// Every read model follows the log: the projection runner, which moves those at the head together.
const deps = { sql, store, vault, batchSize: 1000 };
const caughtUp = new Set<string>();
let allCaughtUp = () => {};
const everyModelCaughtUp = new Promise<void>((resolve) => {
  allCaughtUp = resolve;
});
const runner = new ProjectionRunner(deps, projections, {
  onAdvance(name, position) {
    if (position < head) return;
    caughtUp.add(name);
    if (caughtUp.size === projections.length) allCaughtUp();
  },
});
const liveStarted = Date.now();
await runner.start();
await everyModelCaughtUp;
const liveSeconds = (Date.now() - liveStarted) / 1000;
await runner.stop();
console.log(
  `live projectors caught up: ${projections.length} read models in ${liveSeconds.toFixed(1)} s = ${Math.round(written / liveSeconds)} events/s`,
);

const dump = async () => {
  const out: string[] = [];
  for (const projection of projections) {
    for (const table of projection.tables) {
      const [row] = await sql.unsafe(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest, count(*) as rows from rm_${table} t`,
      );
      out.push(`${table}:${row!.rows}:${row!.digest}`);
    }
  }
  return out;
};
const before = await dump();
const slow: string[] = [];
for (const projection of projections) {
  const result = await rebuild(deps, projection);
  const rate = Math.round(result.events / (result.elapsedMs / 1000));
  if (rate < 30_000 || rate < 0.3 * rawRate) slow.push(projection.name);
  console.log(
    `rebuild ${projection.name.padEnd(17)} ${result.events} events in ${(result.elapsedMs / 1000).toFixed(1)} s = ${rate} events/s (${(rate / rawRate).toFixed(2)} x raw read)`,
  );
}
const liveRate = written / liveSeconds;
console.log(
  `goals: every rebuild at least 30000 events/s and 0.3 x raw read: ${slow.length ? `missed (${slow.join(', ')})` : 'met'}; live projectors together at least 10000 events/s: ${liveRate >= 10_000 ? 'met' : 'missed'}`,
);
const after = await dump();
console.log(after.join('\n'));
console.log(
  JSON.stringify(before) === JSON.stringify(after)
    ? 'rebuilt read models are identical to the live ones'
    : 'MISMATCH',
);
await sql.end();
await embedded?.stop();
await rm(root, { recursive: true, force: true });
if (JSON.stringify(before) !== JSON.stringify(after)) process.exit(1);
