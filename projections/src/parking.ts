import type { EventStore, PersonalDataVault, RecordedEvent } from '@shiftcover/eventstore';
import type { Sql, TransactionSql } from 'postgres';

// Parking: an event a read model or process cannot apply is set aside in `parked_events`, with
// the error, and its consumer moves on past it. One bad event (text no table accepts, a shape the
// code does not expect) must never stop the read models or the mail for everyone else. Operators
// list parked events with `projections:status` or `GET /api/parked-events`, then retry one once
// the cause is fixed or skip it for good (docs/operations.md §6).

/** A read model or process that follows the log, as far as parking is concerned. */
export interface EventConsumer {
  name: string;
  /** Applies one event on its own, as a retry does. */
  handle(event: RecordedEvent): Promise<void>;
}

export interface ParkedEvent {
  consumer: string;
  eventId: string;
  position: bigint;
  streamId: string;
  eventType: string;
  error: string;
  attempts: number;
  parkedAt: Date;
  status: 'parked' | 'skipped';
  skipReason: string | null;
}

/** How often an event that fails on its own is tried, each time in its own savepoint, before it is parked. */
export const ATTEMPTS_BEFORE_PARKING = 2;

// SQLSTATE classes of a server or connection in trouble, not of the event: connection exception,
// transaction rollback (serialization, deadlock), insufficient resources, operator intervention
// (shutdown), system error.
const TRANSIENT_SQLSTATE = /^(08|40|53|57|58)/;
const TRANSIENT_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '55P03',
]);
// The EventStoreDB client's error types for a server out of reach or busy.
const EVENTSTOREDB_TRANSIENT = new Set(['timeout', 'deadline-exceeded', 'unavailable', 'not-leader']);

/**
 * Whether a failure belongs to the infrastructure (PostgreSQL or EventStoreDB down or restarting,
 * a lock timeout, read models still catching up): the batch is retried later and nothing is parked. Anything
 * else (bad data, a constraint, a bug meeting an unexpected event) fails the same way every time.
 * An event is parked in the same transaction as its failed attempts, so a connection lost on the
 * way can never park one.
 */
export function isTransient(error: unknown): boolean {
  const { code, statusCode, type, syscall } = (error ?? {}) as {
    code?: unknown;
    statusCode?: unknown;
    type?: unknown;
    syscall?: unknown;
  };
  if (statusCode === 503) return true;
  // A Unix socket that is not there: its server stopped and removed it.
  if (code === 'ENOENT' && syscall === 'connect') return true;
  if (typeof type === 'string' && EVENTSTOREDB_TRANSIENT.has(type)) return true;
  if (typeof code !== 'string') return false;
  return TRANSIENT_CODES.has(code) || (code.length === 5 && TRANSIENT_SQLSTATE.test(code));
}

/** The error as stored and shown: NUL, which PostgreSQL text refuses, is written as `\0`. */
export const errorText = (error: unknown): string =>
  String((error as Error)?.message ?? error)
    .replaceAll('\u0000', '\\0')
    .slice(0, 2000);

export interface Failure {
  event: RecordedEvent;
  error: string;
}

type ApplyOne = (tx: TransactionSql, event: RecordedEvent) => Promise<unknown>;
type ApplyMany = (tx: TransactionSql, events: readonly RecordedEvent[]) => Promise<unknown>;

/**
 * Applies a batch inside `tx`, event by event, and returns the events that could not be applied,
 * for the caller to park in the same transaction (see applyBatchOrSetAside).
 */
export function applyOrSetAside(
  tx: TransactionSql,
  events: readonly RecordedEvent[],
  vault: PersonalDataVault | undefined,
  apply: ApplyOne,
): Promise<Failure[]> {
  return applyBatchOrSetAside(tx, events, vault, async (sp, batch) => {
    for (const event of batch) await apply(sp, event);
  });
}

/**
 * Applies a batch inside `tx` and returns the events that could not be applied, for the caller to
 * park in the same transaction. The batch is first given whole to `apply` (in a savepoint); only
 * when that fails is each event given on its own, so the cost of finding a culprit is paid only
 * when there is one. A transient failure is thrown: the whole batch is then retried later.
 */
export async function applyBatchOrSetAside(
  tx: TransactionSql,
  events: readonly RecordedEvent[],
  vault: PersonalDataVault | undefined,
  apply: ApplyMany,
): Promise<Failure[]> {
  try {
    await tx.savepoint(async (sp) => {
      await apply(sp, vault ? await vault.open([...events], sp) : events);
    });
    return [];
  } catch (error) {
    if (isTransient(error)) throw error;
    return applyEach(tx, events, vault, apply);
  }
}

/**
 * Applies the events one by one inside `tx`, each in a savepoint tried up to
 * ATTEMPTS_BEFORE_PARKING times; returns those that still failed, for the caller to park in the
 * same transaction. Personal data is opened per event, so one that cannot be opened fails alone.
 * A transient failure is thrown: the whole batch is then retried later.
 */
async function applyEach(
  tx: TransactionSql,
  events: readonly RecordedEvent[],
  vault: PersonalDataVault | undefined,
  apply: ApplyMany,
): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const event of events) {
    let error: unknown;
    for (let attempt = 1; attempt <= ATTEMPTS_BEFORE_PARKING; attempt++) {
      try {
        await tx.savepoint(async (sp) => {
          await apply(sp, vault ? await vault.open([event], sp) : [event]);
        });
        error = undefined;
        break;
      } catch (caught) {
        if (isTransient(caught)) throw caught;
        error = caught;
      }
    }
    if (error !== undefined) failures.push({ event, error: errorText(error) });
  }
  return failures;
}

/** Records a consumer's failed event as parked; parking it again only refreshes the error. */
export async function park(sql: Sql | TransactionSql, consumer: string, failure: Failure): Promise<void> {
  const { event, error } = failure;
  await sql`
    insert into parked_events (consumer, event_id, position, stream_id, event_type, error)
    values (${consumer}, ${event.id}, ${event.position.toString()}, ${event.streamId}, ${event.type}, ${error})
    on conflict (consumer, event_id) do update
      set error = excluded.error, attempts = parked_events.attempts + 1, parked_at = now()
      where parked_events.status = 'parked'`;
}

type Row = {
  consumer: string;
  event_id: string;
  position: bigint;
  stream_id: string;
  event_type: string;
  error: string;
  attempts: number;
  parked_at: Date;
  status: 'parked' | 'skipped';
  skip_reason: string | null;
};
const toParked = (r: Row): ParkedEvent => ({
  consumer: r.consumer,
  eventId: r.event_id,
  position: BigInt(r.position),
  streamId: r.stream_id,
  eventType: r.event_type,
  error: r.error,
  attempts: r.attempts,
  parkedAt: r.parked_at,
  status: r.status,
  skipReason: r.skip_reason,
});

/** Events waiting for an operator, oldest position first; `all` adds the skipped ones. */
export async function listParkedEvents(
  sql: Sql,
  options: { consumer?: string; all?: boolean; limit?: number } = {},
): Promise<ParkedEvent[]> {
  const rows = await sql<Row[]>`
    select * from parked_events
    where ${options.all ? sql`true` : sql`status = 'parked'`}
      ${options.consumer ? sql`and consumer = ${options.consumer}` : sql``}
    order by consumer, position
    limit ${options.limit ?? 500}`;
  return rows.map(toParked);
}

/** How many events each consumer has parked and not yet retried or skipped: for readiness and metrics. */
export async function parkedEventCounts(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql<{ consumer: string; n: number }[]>`
    select consumer, count(*)::int as n from parked_events where status = 'parked' group by consumer order by consumer`;
  return Object.fromEntries(rows.map((r) => [r.consumer, r.n]));
}

/** The ids of the events an operator chose to skip for this consumer: a rebuild passes them over too. */
export async function skippedEventIds(sql: Sql | TransactionSql, consumer: string): Promise<Set<string>> {
  const rows = await sql<{ event_id: string }[]>`
    select event_id from parked_events where consumer = ${consumer} and status = 'skipped'`;
  return new Set(rows.map((r) => r.event_id));
}

export class ParkedEventNotFound extends Error {
  constructor(consumer: string, eventId: string) {
    super(`No event ${eventId} is parked for ${consumer}`);
  }
}

/** A parked event that cannot be retried here: its consumer does not run here, or the event is gone. */
export class ParkedEventUnavailable extends Error {}

async function parkedOne(sql: Sql, consumer: string, eventId: string): Promise<ParkedEvent> {
  const [row] = await sql<Row[]>`
    select * from parked_events where consumer = ${consumer} and event_id = ${eventId} and status = 'parked'`;
  if (!row) throw new ParkedEventNotFound(consumer, eventId);
  return toParked(row);
}

export type RetryOutcome = { parked: ParkedEvent } & ({ applied: true } | { applied: false; error: string });

/**
 * Gives a parked event to its consumer again. Applied, it leaves the parked list; failing again,
 * it stays with the new error. Either way the caller records the decision as an operation.
 */
export async function retryParkedEvent(
  deps: { sql: Sql; store: EventStore; vault: PersonalDataVault },
  consumers: readonly EventConsumer[],
  consumer: string,
  eventId: string,
): Promise<RetryOutcome> {
  const parked = await parkedOne(deps.sql, consumer, eventId);
  const target = consumers.find((c) => c.name === consumer);
  if (!target) {
    const known = consumers.map((c) => c.name).join(', ');
    throw new ParkedEventUnavailable(`No read model or process named ${consumer} runs here. Known: ${known}`);
  }
  const [sealed] = await deps.store.readAll(parked.position - 1n, 1);
  if (sealed?.id !== eventId) throw new ParkedEventUnavailable(`Event ${eventId} is no longer in the log`);
  try {
    const [event] = await deps.vault.open([sealed]);
    await target.handle(event!);
  } catch (error) {
    if (isTransient(error)) throw error;
    const text = errorText(error);
    await deps.sql`update parked_events set error = ${text}, attempts = attempts + 1, parked_at = now()
      where consumer = ${consumer} and event_id = ${eventId} and status = 'parked'`;
    return { parked, applied: false, error: text };
  }
  await deps.sql`delete from parked_events where consumer = ${consumer} and event_id = ${eventId} and status = 'parked'`;
  return { parked, applied: true };
}

/** Marks a parked event as skipped for good, with the operator's reason; it leaves the parked list. */
export async function skipParkedEvent(
  sql: Sql,
  consumer: string,
  eventId: string,
  reason: string,
): Promise<ParkedEvent> {
  const parked = await parkedOne(sql, consumer, eventId);
  await sql`update parked_events set status = 'skipped', skip_reason = ${reason}
    where consumer = ${consumer} and event_id = ${eventId}`;
  return parked;
}
