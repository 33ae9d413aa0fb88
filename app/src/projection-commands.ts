import { randomUUID } from 'node:crypto';
import { createCommandService } from '@shiftcover/command-api';
import { countEventsAfter } from '@shiftcover/eventstore';
import type { Config } from '@shiftcover/platform';
import { type Decision, emailHandler, retryParked, skipParked } from '@shiftcover/processes';
import {
  listParkedEvents,
  parkedEventCounts,
  projections,
  type RebuildProgress,
  readCheckpoints,
  rebuild,
} from '@shiftcover/projections';
import { Positions } from '@shiftcover/read-api';
import { mailSetup } from './processes';
import type { Runtime } from './runtime';

/** `projections:status`: each projection's checkpoint and how far behind the log it is. */
export async function projectionStatus(runtime: Runtime): Promise<string> {
  const head = await runtime.store.headPosition();
  const checkpoints = new Map((await readCheckpoints(runtime.sql)).map((c) => [c.name, c]));
  const [newest] = await runtime.sql<
    { recorded_at: Date | null }[]
  >`select max(recorded_at) as recorded_at from events`.catch(() => [{ recorded_at: null }]);
  const lines = ['projection          checkpoint      lag (events)   lag (s)   version'];
  for (const projection of projections) {
    const checkpoint = checkpoints.get(projection.name);
    const position = checkpoint?.position ?? 0n;
    const behind = await countEventsAfter(runtime.sql, position, Number.MAX_SAFE_INTEGER);
    const seconds =
      behind > 0 && checkpoint && newest?.recorded_at
        ? Math.max(0, (newest.recorded_at.getTime() - checkpoint.updatedAt.getTime()) / 1000).toFixed(1)
        : '0.0';
    const version = checkpoint
      ? `${checkpoint.version}${checkpoint.version !== projection.version ? ` (code: ${projection.version})` : ''}`
      : 'not installed';
    lines.push(
      `${projection.name.padEnd(19)} ${position.toString().padStart(10)}   ${behind.toString().padStart(12)}   ${seconds.padStart(7)}   ${version}`,
    );
  }
  lines.push(`log head: ${head}`);
  lines.push('', ...(await parkedLines(runtime)));
  return lines.join('\n');
}

/** The events each read model or process set aside, for `projections:retry` or `projections:skip`. */
async function parkedLines(runtime: Runtime): Promise<string[]> {
  const parked = await listParkedEvents(runtime.sql);
  if (parked.length === 0) return ['parked events: none'];
  const counts = Object.entries(await parkedEventCounts(runtime.sql)).map(([name, n]) => `${name} ${n}`);
  const lines = [`parked events: ${parked.length} (${counts.join(', ')})`];
  for (const p of parked) {
    lines.push(
      `  ${p.consumer} ${p.eventId}  ${p.eventType} at ${p.position} (${p.streamId}), parked ${p.parkedAt.toISOString()}, ${p.attempts} attempts`,
      `    ${p.error.split('\n')[0]}`,
    );
  }
  lines.push('Retry one once fixed: projections:retry <consumer> <event id>');
  lines.push('Or leave it for good: projections:skip <consumer> <event id> --reason "..."');
  return lines;
}

/** The operator at the command line, as the operation's actor. */
const fromCli = (): Decision => {
  const commandId = randomUUID();
  return {
    operationId: randomUUID(),
    context: { actor: { kind: 'system', name: 'cli' }, now: new Date() },
    trace: { commandId },
  };
};

/** `projections:retry <consumer> <event id>`: true when the event now applied and left the list. */
export async function retryParkedFromCli(
  runtime: Runtime,
  config: Config,
  consumer: string,
  eventId: string,
): Promise<{ applied: boolean; message: string }> {
  const mail = mailSetup(runtime, config, new Positions(runtime.sql));
  const service = createCommandService(runtime.handler, runtime.vault);
  const deps = { sql: runtime.sql, store: runtime.store, service, handlers: [emailHandler(mail)] };
  try {
    const done = await retryParked(deps, consumer, eventId, fromCli());
    const what = `${done.parked.eventType} at ${done.parked.position} for ${consumer}`;
    return done.applied
      ? { applied: true, message: `Applied ${what}; it left the parked list.` }
      : { applied: false, message: `Still cannot apply ${what}: ${done.error}` };
  } finally {
    mail.smtp?.close();
  }
}

/** `projections:skip <consumer> <event id> --reason ...`. */
export async function skipParkedFromCli(
  runtime: Runtime,
  consumer: string,
  eventId: string,
  reason: string,
): Promise<string> {
  const service = createCommandService(runtime.handler, runtime.vault);
  const done = await skipParked({ sql: runtime.sql, service }, consumer, eventId, reason, fromCli());
  return `Skipped ${done.parked.eventType} at ${done.parked.position} for ${consumer}: ${reason}`;
}

function bar(progress: RebuildProgress, width = 30): string {
  const done = progress.total > 0 ? Math.min(1, progress.events / progress.total) : 1;
  const rate = progress.elapsedMs > 0 ? (progress.events / progress.elapsedMs) * 1000 : 0;
  const left = rate > 0 ? Math.max(0, (progress.total - progress.events) / rate) : 0;
  const filled = Math.round(done * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(done * 100).toFixed(0).padStart(3)}%  ${Math.round(rate)} events/s  ${left.toFixed(0)} s left`;
}

/** `projections:rebuild [name]`: fresh tables filled from the whole log, swapped in when caught up. */
export async function rebuildProjections(
  runtime: Runtime,
  name: string | undefined,
  write: (text: string) => void,
): Promise<RebuildProgress[]> {
  const chosen = name ? projections.filter((p) => p.name === name) : projections;
  if (chosen.length === 0) {
    throw new Error(`No projection named ${name}. Known: ${projections.map((p) => p.name).join(', ')}`);
  }
  const results: RebuildProgress[] = [];
  for (const projection of chosen) {
    let last = 0;
    const result = await rebuild(
      { sql: runtime.sql, store: runtime.store, vault: runtime.vault },
      projection,
      (p) => {
        if (Date.now() - last < 200 && p.events < p.total) return;
        last = Date.now();
        write(`\r${projection.name.padEnd(17)} ${bar(p)}`);
      },
    );
    write(
      `\r${projection.name.padEnd(17)} ${bar(result)}  ${result.events} events in ${(result.elapsedMs / 1000).toFixed(1)} s\n`,
    );
    results.push(result);
  }
  return results;
}
