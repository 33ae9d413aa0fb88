import { easternStamp, nextDate } from '@shiftcover/domain';
import { ChainVerifier, type RecordedEvent } from '@shiftcover/eventstore';
import { csv } from '@shiftcover/platform';
import type { Runtime } from '../runtime';
import { parseMoment } from './eastern';
import { changes, replay, stateAsOf } from './replay';

export class AuditUsageError extends Error {}

type Write = (text: string) => void;

async function actorNames(runtime: Runtime): Promise<Map<string, string>> {
  const rows = await runtime.sql<{ id: string; first_name: string; last_name: string }[]>`
    select id, first_name, last_name from rm_users`.catch(() => []);
  return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name}`]));
}

function actorOf(event: RecordedEvent, names: Map<string, string>): string {
  const { actorId, actorRole } = event.metadata;
  const name = names.get(actorId);
  return `${name ? `${name} (${actorId})` : actorId} as ${actorRole}`;
}

/** `history <stream>`: every event with its Eastern time, its actor and what it changed. */
export async function history(runtime: Runtime, streamId: string, write: Write): Promise<void> {
  const steps = await replay(runtime.handler, streamId);
  if (steps.length === 0) throw new AuditUsageError(`Stream ${streamId} has no events`);
  const names = await actorNames(runtime);
  for (const { event, before, after } of steps) {
    write(
      `#${event.revision} ${easternStamp(event.recordedAt)}  ${event.type}  by ${actorOf(event, names)}\n`,
    );
    const changed = changes(before, after);
    for (const line of changed.length ? changed : ['(no change to the state)']) write(`    ${line}\n`);
  }
}

/** `as-of <time> <stream>`: the stream's state at that moment, by replay. */
export async function asOf(runtime: Runtime, time: string, streamId: string, write: Write): Promise<void> {
  const moment = parseMoment(time);
  if (!moment) {
    throw new AuditUsageError(
      `Not a time: ${time} (use 2026-03-08, '2026-03-08 14:30' Eastern, or an ISO instant)`,
    );
  }
  const { state, applied, total } = await stateAsOf(runtime.handler, streamId, moment);
  write(`${streamId} as of ${easternStamp(moment)}: ${applied} of ${total} events applied\n`);
  write(`${JSON.stringify(state, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
}

async function* wholeLog(runtime: Runtime): AsyncGenerator<RecordedEvent> {
  let after = 0n;
  for (;;) {
    const batch = await runtime.store.readAll(after, 1000);
    if (batch.length === 0) return;
    yield* batch;
    after = batch.at(-1)!.position;
  }
}

/** Encrypted personal data is of no use outside the system and must not leave it. */
function withoutPersonalData(data: Record<string, unknown>): Record<string, unknown> {
  return 'personal' in data ? { ...data, personal: '[personal data withheld]' } : data;
}

/** `audit:export --from D --to D [--format csv|ndjson]`: every event recorded on those Eastern days. */
export async function exportEvents(
  runtime: Runtime,
  options: { from?: string; to?: string; format?: string },
  write: Write,
): Promise<number> {
  const format = options.format ?? 'csv';
  if (format !== 'csv' && format !== 'ndjson') throw new AuditUsageError('--format is csv or ndjson');
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
  if (!options.from || !options.to || !dateOnly.test(options.from) || !dateOnly.test(options.to)) {
    throw new AuditUsageError('Give --from and --to as dates, e.g. --from 2026-11-01 --to 2026-11-30');
  }
  const start = parseMoment(options.from)!;
  const end = parseMoment(nextDate(options.to))!;
  if (end <= start) throw new AuditUsageError('--to must not be before --from');
  if (format === 'csv') {
    write(csv([['position', 'recorded_at', 'stream', 'revision', 'type', 'actor_id', 'actor_role', 'data']]));
  }
  let count = 0;
  for await (const event of wholeLog(runtime)) {
    if (event.recordedAt < start || event.recordedAt >= end) continue;
    count += 1;
    const row = {
      position: event.position.toString(),
      recordedAt: easternStamp(event.recordedAt),
      stream: event.streamId,
      revision: event.revision.toString(),
      type: event.type,
      actorId: event.metadata.actorId,
      actorRole: event.metadata.actorRole,
      data: withoutPersonalData(event.data),
    };
    if (format === 'ndjson') write(`${JSON.stringify(row)}\n`);
    else write(csv([[...Object.values(row).slice(0, 7).map(String), JSON.stringify(row.data)]]));
  }
  return count;
}

/** `audit:verify`: follows every stream's hash chain; false when any event was altered or removed. */
export async function verifyChains(runtime: Runtime, write: Write): Promise<boolean> {
  const verifier = new ChainVerifier(runtime.chainKey);
  for await (const event of wholeLog(runtime)) verifier.add(event);
  const breaks = verifier.breaks();
  write(`Checked ${verifier.checked} events in ${verifier.streams} streams.\n`);
  if (verifier.unkeyed > 0) {
    write(
      `${verifier.unkeyed} events carry the unkeyed hash of before the audit chain key: they show accidental changes, not a rewrite by someone with database access.\n`,
    );
  }
  if (breaks.length === 0) {
    write('Every stream’s hash chain is intact.\n');
    return true;
  }
  for (const b of breaks)
    write(`BROKEN ${b.streamId} at revision ${b.revision} (event ${b.eventId}): ${b.reason}\n`);
  return false;
}
