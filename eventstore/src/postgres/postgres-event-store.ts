import { migrate } from '@shiftcover/platform';
import type { JSONValue, Sql, TransactionSql } from 'postgres';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
  WrongExpectedRevision,
} from '../port';
import { eventStoreMigrations } from './migrations';
import { followAll } from './subscription';

const NOTIFY_CHANNEL = 'shiftcover_events';

const EVENT_COLUMNS = [
  'position',
  'event_id',
  'stream_id',
  'revision',
  'type',
  'data',
  'metadata',
  'recorded_at',
] as const;

interface EventRow {
  position: bigint;
  event_id: string;
  stream_id: string;
  revision: bigint;
  type: string;
  data: Record<string, unknown>;
  metadata: RecordedEvent['metadata'];
  recorded_at: Date;
}

export function migrateEventStore(sql: Sql): Promise<void> {
  return migrate(sql, 'eventstore', eventStoreMigrations);
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    recordedAt: row.recorded_at,
  };
}

/**
 * Positions must become visible in order, or a follower that has seen position 101 skips 100 when
 * its transaction commits later. Reading only below `pg_snapshot_xmin` does not fix that for a
 * single position: a transaction can take its xid before another yet its position after it, so
 * that technique needs (xid, position) checkpoints and delivers out of position order. Instead
 * appends take their positions and commit under one lock, so every snapshot sees a prefix of the
 * log. Appends to different streams still check and prepare in parallel; only insert and commit
 * take turns.
 */
const COMMIT_ORDER_LOCK = 7_262_651_001;

export interface PostgresEventStoreOptions {
  sql: Sql;
  /** How often a subscriber looks for new events when no notification arrives. */
  pollIntervalMs?: number;
  /** Awaited inside each append's transaction just before it commits; fault tests stretch it. */
  beforeCommit?: () => Promise<void>;
}

export function createPostgresEventStore({
  sql,
  pollIntervalMs = 500,
  beforeCommit,
}: PostgresEventStoreOptions): EventStore {
  async function currentRevision(tx: TransactionSql, streamId: string): Promise<bigint | 'no_stream'> {
    const [row] = await tx<{ revision: bigint }[]>`
      select revision from event_streams where stream_id = ${streamId}`;
    return row ? BigInt(row.revision) : 'no_stream';
  }

  /** The last already-stored event among these ids: appending them again is a no-op. */
  async function stored(db: Sql | TransactionSql, events: NewEvent[]): Promise<AppendResult | undefined> {
    const [row] = await db<{ position: bigint; revision: bigint }[]>`
      select position, revision from events
      where event_id = any(${events.map((e) => e.id)}::uuid[])
      order by position desc limit 1`;
    return row ? { nextRevision: BigInt(row.revision), position: BigInt(row.position) } : undefined;
  }

  async function append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('Nothing to append');
    try {
      return await sql.begin(async (tx) => {
        // Serialises appenders of one stream; other streams are not held up.
        await tx`select pg_advisory_xact_lock(hashtextextended(${streamId}, 0))`;
        const duplicate = await stored(tx, events);
        if (duplicate) return duplicate;
        const actual = await currentRevision(tx, streamId);
        const matches =
          expected === 'any' ||
          (expected === 'no_stream' ? actual === 'no_stream' : actual !== 'no_stream' && actual === expected);
        if (!matches) throw new WrongExpectedRevision(streamId, expected, actual);

        await tx`select pg_advisory_xact_lock(${COMMIT_ORDER_LOCK})`;
        const first = actual === 'no_stream' ? 0n : actual + 1n;
        const rows = events.map((event, i) => ({
          event_id: event.id,
          stream_id: streamId,
          revision: (first + BigInt(i)).toString(),
          type: event.type,
          data: tx.json(event.data as JSONValue),
          metadata: tx.json(event.metadata as JSONValue),
        }));
        const inserted = await tx<{ position: bigint }[]>`
          insert into events ${tx(rows, 'event_id', 'stream_id', 'revision', 'type', 'data', 'metadata')}
          returning position`;
        const nextRevision = first + BigInt(events.length) - 1n;
        await tx`
          insert into event_streams (stream_id, revision) values (${streamId}, ${nextRevision.toString()})
          on conflict (stream_id) do update set revision = excluded.revision`;
        await tx`select pg_notify(${NOTIFY_CHANNEL}, '')`;
        await beforeCommit?.();
        const position = inserted.reduce(
          (max, row) => (BigInt(row.position) > max ? BigInt(row.position) : max),
          0n,
        );
        return { nextRevision, position };
      });
    } catch (error) {
      // A racing duplicate of the same event id lost at the unique index: report the stored one.
      if (isUniqueViolation(error, 'events_event_id_key')) {
        const duplicate = await stored(sql, events);
        if (duplicate) return duplicate;
      }
      throw error;
    }
  }

  async function readStream(streamId: string): Promise<ReadStreamResult> {
    const rows = await sql<EventRow[]>`
      select ${sql(EVENT_COLUMNS)} from events where stream_id = ${streamId} order by revision`;
    const events = rows.map(toRecorded);
    return { events, revision: events.at(-1)?.revision ?? 'no_stream' };
  }

  async function readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    const rows = await sql<EventRow[]>`
      select ${sql(EVENT_COLUMNS)} from events
      where position > ${after.toString()}
      order by position
      limit ${limit}`;
    return rows.map(toRecorded);
  }

  async function headPosition(): Promise<bigint> {
    const [row] = await sql<{ position: bigint | null }[]>`
      select max(position) as position from events`;
    return row?.position == null ? 0n : BigInt(row.position);
  }

  function subscribeToAll(after: bigint, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return followAll({ sql, channel: NOTIFY_CHANNEL, pollIntervalMs, after, readAll, handler });
  }

  function watch(listener: () => void): () => Promise<void> {
    const listening = sql.listen(NOTIFY_CHANNEL, listener).catch(() => undefined);
    return async () => {
      await (await listening)?.unlisten().catch(() => undefined);
    };
  }

  return {
    append,
    readStream,
    readAll,
    subscribeToAll,
    headPosition,
    watch,
    // The pool belongs to the caller.
    close: async () => {},
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: string }).code === '23505' &&
    (error as { constraint_name?: string }).constraint_name === constraint
  );
}
