import { migrate } from '@shiftcover/platform';
import type { JSONValue, Sql, TransactionSql } from 'postgres';
import { type ChainKey, chainEvents, chainHashOf, GENESIS_HASH } from '../chain';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  type StreamHead,
  type Subscription,
  type TogetherResult,
  WrongExpectedRevision,
} from '../port';
import { Recent } from '../recent';
import { AskedTogether } from '../stream-heads';
import { type AppendPart, GatheredAppends, type PartOutcome } from './gathered-appends';
import { eventStoreMigrations } from './migrations';
import { appendAnnouncer, readableDoorbell } from './notifications';
import { followAll } from './subscription';

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
 * A follower keeps one position and must never pass an event that commits later. Appends do not
 * take turns to commit; instead an event's position is its transaction's id times 2^20 plus its
 * index in the transaction (`eventstore_append_each`, see the migrations), and readers read only below the
 * oldest transaction id still running (`eventstore_read_horizon`): every transaction below it has
 * ended, so nothing can appear there any more. Positions thus follow transaction ids, the order
 * the horizon uncovers them in, and a bare position is a safe checkpoint (ordering by transaction
 * id but checkpointing another number is what loses events). The append takes its transaction id
 * only once it holds its stream's lock, so a stream's revisions are in position order too. The
 * notification is sent after the commit, so commits do not queue for its lock either.
 */
export interface PostgresEventStoreOptions {
  sql: Sql;
  /** How often a subscriber looks for new events when no notification arrives. */
  pollIntervalMs?: number;
  /**
   * How long the doorbell gathers appends before it wakes the followers (see `readableDoorbell`):
   * at most this much later, a follower reads every event appended meanwhile in one round.
   */
  gatherMs?: number;
  /** The least time between two notifications of appends (see `appendAnnouncer`). */
  announceSpacingMs?: number;
  /**
   * How long `readAll` waits at most for transactions older than the events committed before it
   * (one second by default).
   */
  readWaitMs?: number;
  /** Awaited inside each append's transaction just before it commits; fault tests stretch it. */
  beforeCommit?: () => Promise<void>;
  /** The audit chain key (see chain.ts); without it events are chained unkeyed. */
  chainKey?: ChainKey;
}

/** How long the doorbell gathers appends by default before it wakes the followers. */
const GATHER_MS = 10;

/** How long `readAll` waits at most for transactions older than the events committed before it. */
const READ_WAIT_MS = 1_000;
const FIRST_READ_RETRY_MS = 2;
const LONGEST_READ_RETRY_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The most streams read in one statement; what is asked beyond waits for the next. */
const MOST_STREAMS_PER_READ = 100;
/** Between a read's revision and its stream's id in the key of a read asked for. */
const KEY_SEPARATOR = '\u0000';

/** How many streams' last revision and hash are remembered, to chain an append without a read. */
const REMEMBERED_HEADS = 10_000;

export function createPostgresEventStore({
  sql,
  pollIntervalMs = 500,
  gatherMs = GATHER_MS,
  announceSpacingMs,
  readWaitMs = READ_WAIT_MS,
  beforeCommit,
  chainKey,
}: PostgresEventStoreOptions): EventStore {
  const announcer = appendAnnouncer(sql, announceSpacingMs);
  const doorbell = readableDoorbell(sql, gatherMs);
  // The last revision and chain hash seen of recently read or written streams. A stale entry costs
  // a retry, never a wrong chain: the append function checks the hash it was chained to.
  const heads = new Recent<string, { revision: bigint; hash: string }>(REMEMBERED_HEADS);
  function remember(streamId: string, revision: bigint, hash: string) {
    heads.set(streamId, { revision, hash });
  }

  /** A stream's last revision and the chain hash of its last event, kept side by side. */
  async function lastOf(streamId: string): Promise<{ revision: bigint; hash: string } | undefined> {
    const [row] = await sql<{ revision: bigint; hash: string | null }[]>`
      select revision, last_hash as hash from event_streams where stream_id = ${streamId}`;
    return row ? { revision: BigInt(row.revision), hash: row.hash ?? GENESIS_HASH } : undefined;
  }

  /** The revision to append after and the hash to chain to, read only when not remembered. */
  async function chainPoint(
    streamId: string,
    expected: ExpectedRevision,
  ): Promise<{ after: bigint | 'no_stream'; hash: string }> {
    if (expected === 'no_stream') return { after: 'no_stream', hash: GENESIS_HASH };
    const known = heads.get(streamId);
    if (known && (expected === 'any' || known.revision === expected)) {
      return { after: known.revision, hash: known.hash };
    }
    const last = await lastOf(streamId);
    if (expected === 'any') {
      return last ? { after: last.revision, hash: last.hash } : { after: 'no_stream', hash: GENESIS_HASH };
    }
    // A stream at another revision fails the revision check, whatever the hash.
    return { after: expected, hash: last?.revision === expected ? last.hash : GENESIS_HASH };
  }

  /** One append statement, in a transaction of its own; `beforeCommit`, when given, runs inside it. */
  function committed<T>(call: (db: Sql | TransactionSql) => Promise<T>): Promise<T> {
    if (!beforeCommit) return call(sql);
    return sql.begin(async (tx) => {
      const result = await call(tx);
      await beforeCommit();
      return result;
    }) as Promise<T>;
  }

  /** Appends made while others are on their way go together, in one statement (see `GatheredAppends`). */
  const appends = new GatheredAppends((each) =>
    committed(
      (db) => db<PartOutcome[]>`
        select * from eventstore_append_each(${db.json(each as unknown as JSONValue)})`,
    ),
  );

  async function append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('Nothing to append');
    for (let attempt = 1; ; attempt++) {
      const { after, hash } = await chainPoint(streamId, expected);
      const chained = chainEvents(streamId, after === 'no_stream' ? 0n : after + 1n, hash, events, chainKey);
      const part: AppendPart = {
        stream: streamId,
        expected: after === 'no_stream' ? null : after.toString(),
        previousHash: hash,
        events: chained.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
      };
      let rows: PartOutcome[];
      try {
        rows = await appends.append([part]);
      } catch (error) {
        // A racing duplicate of the same event id lost at the unique index: report the stored one.
        if (isUniqueViolation(error, 'events_event_id_key')) {
          const duplicate = await stored(events);
          if (duplicate) return duplicate;
        }
        throw error;
      }
      const result = rows[0]!;
      const revision = result.stream_revision === null ? null : BigInt(result.stream_revision);
      switch (result.outcome) {
        case 'appended':
          remember(streamId, revision!, chainHashOf(chained.at(-1)));
          announcer.announce();
          return { nextRevision: revision!, position: BigInt(result.last_position!) };
        case 'duplicate':
          return { nextRevision: revision!, position: BigInt(result.last_position!), alreadyStored: true };
        case 'stale_hash':
          heads.delete(streamId);
          if (attempt < 5) continue;
          throw new Error(`Stream ${streamId}: its last event's chain hash keeps changing`);
        case 'conflict':
          heads.delete(streamId);
          if (expected === 'any' && attempt < 20) continue;
          throw new WrongExpectedRevision(streamId, expected, revision ?? 'no_stream');
      }
    }
  }

  /**
   * Appends to several streams in one statement, hence one transaction (`eventstore_append_together`):
   * each part is chained as `append` chains it, and a stale chain point is read again.
   */
  async function appendTogether(parts: readonly StreamAppend[]): Promise<TogetherResult> {
    if (parts.length === 0 || parts.some((p) => p.events.length === 0)) throw new Error('Nothing to append');
    for (let attempt = 1; ; attempt++) {
      const chained = await Promise.all(
        parts.map(async ({ streamId, events, expected }) => {
          const { after, hash } = await chainPoint(streamId, expected);
          const first = after === 'no_stream' ? 0n : after + 1n;
          return { streamId, after, hash, events: chainEvents(streamId, first, hash, events, chainKey) };
        }),
      );
      const payload = chained.map(({ streamId, after, hash, events }) => ({
        stream: streamId,
        expected: after === 'no_stream' ? null : after.toString(),
        previousHash: hash,
        events: events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
      }));
      let rows: PartOutcome[];
      try {
        rows = await appends.append(payload);
      } catch (error) {
        // A racing copy of the same append lost at the unique index: the next attempt finds it stored.
        if (isUniqueViolation(error, 'events_event_id_key') && attempt < 5) continue;
        throw error;
      }
      const first = rows[0]!;
      const part = parts[first.part]!;
      const revision = first.stream_revision === null ? null : BigInt(first.stream_revision);
      switch (first.outcome) {
        case 'appended':
          chained.forEach(({ streamId, events }, i) => {
            remember(streamId, BigInt(rows[i]!.stream_revision!), chainHashOf(events.at(-1)));
          });
          announcer.announce();
          return {
            outcome: 'appended',
            results: rows.map((row) => ({
              nextRevision: BigInt(row.stream_revision!),
              position: BigInt(row.last_position!),
            })),
          };
        case 'duplicate':
          return {
            outcome: 'repeated',
            part: first.part,
            stored: { nextRevision: revision!, position: BigInt(first.last_position!) },
          };
        case 'stale_hash':
          heads.delete(part.streamId);
          if (attempt < 5) continue;
          throw new Error(`Stream ${part.streamId}: its last event's chain hash keeps changing`);
        case 'conflict':
          heads.delete(part.streamId);
          if (part.expected === 'any' && attempt < 20) continue;
          throw new WrongExpectedRevision(part.streamId, part.expected, revision ?? 'no_stream');
      }
    }
  }

  /** The last already-stored event among these ids: appending them again is a no-op. */
  async function stored(events: NewEvent[]): Promise<AppendResult | undefined> {
    const [row] = await sql<{ position: bigint; revision: bigint }[]>`
      select position, revision from events
      where event_id = any(${events.map((e) => e.id)}::uuid[])
      order by position desc limit 1`;
    return row
      ? { nextRevision: BigInt(row.revision), position: BigInt(row.position), alreadyStored: true }
      : undefined;
  }

  /**
   * Streams read together: the reads asked for while one is on its way go out in one statement
   * when it is back (see `AskedTogether`), so a busy server reads many commands' streams in one
   * round trip, and each answer is still from a read that started after it was asked for.
   */
  const streamReads = new AskedTogether<string, ReadStreamResult>(readStreams, MOST_STREAMS_PER_READ);

  async function readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    const from = options.fromRevision ?? 0n;
    const read = (await streamReads.of(`${from}${KEY_SEPARATOR}${streamId}`))!;
    // Two callers asking for the same read at once share it: each gets a list of its own.
    return { events: [...read.events], revision: read.revision };
  }

  /**
   * Each stream's events from a revision on, for keys `from<separator>streamId`, in one statement:
   * one snapshot for all, each stream found through its own index lookups. A stream with no event
   * from that revision on answers its revision from `event_streams`.
   */
  async function readStreams(keys: string[]): Promise<Map<string, ReadStreamResult>> {
    const asked = keys.map((key) => {
      const at = key.indexOf(KEY_SEPARATOR);
      return { from: key.slice(0, at), streamId: key.slice(at + 1) };
    });
    const rows = await sql<(Partial<EventRow> & { asked: bigint; head: bigint | null })[]>`
      select r.asked, s.revision as head, ${sql.unsafe(EVENT_COLUMNS.map((column) => `e.${column}`).join(', '))}
      from unnest(${asked.map((a) => a.streamId)}::text[], ${asked.map((a) => a.from)}::bigint[])
        with ordinality as r(stream_id, from_revision, asked)
      left join event_streams s on s.stream_id = r.stream_id
      left join lateral (
        select ${sql(EVENT_COLUMNS)} from events
        where events.stream_id = r.stream_id and events.revision >= r.from_revision
        order by events.revision
      ) e on true
      order by r.asked, e.revision`;
    const answers = new Map<string, ReadStreamResult>();
    for (const key of keys) answers.set(key, { events: [], revision: 'no_stream' });
    for (const row of rows) {
      const key = keys[Number(row.asked) - 1]!;
      const answer = answers.get(key)!;
      if (row.position != null) answer.events.push(toRecorded(row as EventRow));
      else if (row.head != null) answer.revision = BigInt(row.head);
    }
    for (const answer of answers.values()) {
      const last = answer.events.at(-1);
      if (!last) continue;
      answer.revision = last.revision;
      remember(last.streamId, last.revision, chainHashOf(last));
    }
    return answers;
  }

  async function streamHeads(streamIds: readonly string[]): Promise<Map<string, StreamHead>> {
    if (streamIds.length === 0) return new Map();
    const rows = await sql<{ stream_id: string; revision: bigint; event_id: string }[]>`
      select s.stream_id, s.revision, e.event_id from event_streams s
      join events e on e.stream_id = s.stream_id and e.revision = s.revision
      where s.stream_id = any(${streamIds as string[]}::text[])`;
    return new Map(
      rows.map((row) => [row.stream_id, { revision: BigInt(row.revision), eventId: row.event_id }]),
    );
  }

  /**
   * The readable events after a position, the horizon, and the last event committed (readable or
   * not). One statement, so that the page and the horizon are of one snapshot: the page's rows,
   * and one more row holding the horizon alone (a copy of it on every row costs a page's reading
   * a sixth of its time).
   */
  async function readPage(after: bigint, limit: number) {
    const rows = await sql<(Partial<EventRow> & { below: bigint | null; head: bigint | null })[]>`
      with horizon as materialized (
        select eventstore_read_horizon() as below, (select max(position) from events) as head
      )
      select null::bigint as below, null::bigint as head, page.* from (
        select ${sql(EVENT_COLUMNS)} from events
        where position > ${after.toString()} and position < (select below from horizon)
        order by position
        limit ${limit}
      ) page
      union all
      select below, head, ${sql.unsafe(EVENT_COLUMNS.map(() => 'null').join(', '))} from horizon`;
    const horizon = rows.find((row) => row.below != null)!;
    const events = rows.filter((row) => row.position != null).map((row) => toRecorded(row as EventRow));
    // The page comes in position order; should a plan ever give it otherwise, it is put in order.
    if (events.some((event, i) => i > 0 && event.position < events[i - 1]!.position)) {
      events.sort((a, b) => (a.position < b.position ? -1 : 1));
    }
    return {
      events,
      below: BigInt(horizon.below!),
      head: horizon.head == null ? 0n : BigInt(horizon.head),
    };
  }

  // Waits, briefly, for the transactions older than the events committed before the call: a
  // caller reading right after its own append finds it.
  async function readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    const giveUp = Date.now() + readWaitMs;
    let wait = FIRST_READ_RETRY_MS;
    let committedBefore: bigint | undefined;
    for (;;) {
      const page = await readPage(after, limit);
      committedBefore ??= page.head;
      if (page.events.length === limit || committedBefore < page.below || Date.now() >= giveUp) {
        return page.events;
      }
      await sleep(wait);
      wait = Math.min(wait * 2, LONGEST_READ_RETRY_MS);
    }
  }

  async function readAt(positions: readonly bigint[]): Promise<RecordedEvent[]> {
    if (positions.length === 0) return [];
    const rows = await sql<EventRow[]>`
      select ${sql(EVENT_COLUMNS)} from events
      where position = any(${positions.map(String)}::bigint[])
      order by position`;
    return rows.map(toRecorded);
  }

  async function headPosition(): Promise<bigint> {
    const [row] = await sql<{ position: bigint | null }[]>`
      select max(position) as position from events`;
    return row?.position == null ? 0n : BigInt(row.position);
  }

  function watch(listener: () => void): () => Promise<void> {
    return doorbell.watch(listener);
  }

  function subscribeToAll(after: bigint, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    return followAll({ watch, pollIntervalMs, after, readAll, handler });
  }

  return {
    append,
    appendTogether,
    readStream,
    streamHeads,
    readAll,
    readAt,
    subscribeToAll,
    headPosition,
    watch,
    // The pool belongs to the caller; only the last notification is waited for.
    close: () => announcer.settled(),
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

/**
 * How many events lie after a position, counted up to `atMost`: positions have gaps, so their
 * difference is no count, and a bounded count stays cheap however far behind a reader is.
 */
export async function countEventsAfter(sql: Sql, position: bigint, atMost: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from (
      select 1 from events where position > ${position.toString()} order by position limit ${atMost}
    ) behind`;
  return row!.n;
}
