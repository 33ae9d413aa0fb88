import { inCategory } from '@shiftcover/domain';
import { type EventStore, Recent, type RecordedEvent } from '@shiftcover/eventstore';
import { applyOrSetAside, type Failure, park } from '@shiftcover/projections';
import type { Sql } from 'postgres';
import { storeDeliveries } from './outbox';
import { mayMail, planMails } from './plan';
import type { Delivery, MailPlannerDeps } from './planner-deps';

/** The read models recipients and reports come from; planning waits until they have caught up. */
const PLANNING_READ_MODELS = ['users', 'residences', 'system_config', 'completed_shifts', 'audit_log'];

const NAME = 'email';

/**
 * Plans the next batch after the planner's checkpoint, rows, parked events and checkpoint in one
 * transaction.
 */
export async function planNextBatch(
  deps: MailPlannerDeps,
  batchSize = 200,
  onParked: (failure: Failure) => void = () => {},
): Promise<number> {
  await deps.sql`insert into process_checkpoints (name) values (${NAME}) on conflict do nothing`;
  const [checkpoint] = await deps.sql<
    { position: bigint }[]
  >`select position from process_checkpoints where name = ${NAME}`;
  const after = BigInt(checkpoint!.position);
  const events = await deps.store.readAll(after, batchSize);
  if (events.length === 0) return 0;
  await deps.readModelsAt(events.at(-1)!.position, PLANNING_READ_MODELS);
  const failures: Failure[] = [];
  const planned = await deps.sql.begin(async (tx) => {
    const [locked] = await tx<
      { position: bigint }[]
    >`select position from process_checkpoints where name = ${NAME} for update`;
    if (BigInt(locked!.position) !== after) return 0;
    // An event the planner cannot handle is parked, so later events are still mailed.
    failures.push(
      ...(await applyOrSetAside(tx, events, undefined, (sp, event) => planMails(deps, sp, event))),
    );
    for (const failure of failures) await park(tx, NAME, failure);
    await tx`update process_checkpoints set position = ${events.at(-1)!.position.toString()}, updated_at = now() where name = ${NAME}`;
    return events.length;
  });
  for (const failure of failures) onParked(failure);
  return planned;
}

/** The first start mails what happens from then on, not the history already in the store. */
export async function mailFromNow(sql: Sql, store: EventStore): Promise<void> {
  const head = await store.headPosition();
  await sql`insert into process_checkpoints (name, position) values (${NAME}, ${head.toString()}) on conflict do nothing`;
}

/** How many shifts' streams the JetStream planner keeps from one batch to the next. */
const SHIFTS_FOLLOWED = 2_000;

/**
 * The shift streams the planner has seen, each as its events from the first, kept from one batch
 * to the next: the events of each batch extend the streams they continue, so a shift whose events
 * have all come through the planner (posted, then claimed, then approved) is planned without
 * reading its stream again. Stored events never change, so a stream kept here can only fall behind
 * the store, never disagree with it; an event that does not continue it (one the planner did not
 * see, or a store begun afresh) has it read again. The most recently used streams are kept.
 */
class FollowedShifts {
  private readonly streams: Recent<string, RecordedEvent[]>;

  constructor(limit = SHIFTS_FOLLOWED) {
    this.streams = new Recent(limit);
  }

  /** Extends the streams that the shift events among `events` continue, in the log's order. */
  follow(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      if (!inCategory(event.streamId, 'shift')) continue;
      const known = this.streams.get(event.streamId);
      const at = Number(event.revision);
      if (known?.[at]?.id === event.id) continue;
      const continues = known?.length === at && known.at(-1)!.position < event.position;
      if (continues) this.streams.set(event.streamId, [...known, event]);
      else if (at === 0) this.streams.set(event.streamId, [event]);
      else this.streams.delete(event.streamId);
    }
  }

  /** Keeps a stream as read, when it is whole: its events numbered from the first, in order. */
  learn(streamId: string, events: readonly RecordedEvent[]): void {
    if (events.length > 0 && events.every((event, i) => event.revision === BigInt(i)))
      this.streams.set(streamId, [...events]);
  }

  /** The stream's events, when kept at least up to `revision`. */
  through(streamId: string, revision: bigint): RecordedEvent[] | undefined {
    const known = this.streams.get(streamId);
    return known && known.length > Number(revision) ? known : undefined;
  }
}

/**
 * The store, with the streams of a batch's shift events asked for at once, so that the store reads
 * them together in one statement (see `AskedTogether`); each is kept for the batch, where its
 * events up to the one planned never change. A stream `followed` already holds up to the batch's
 * last event of it is not read at all, and one read is kept there. Other reads go to the store.
 */
function readingAhead(store: EventStore, events: RecordedEvent[], followed: FollowedShifts): EventStore {
  const last = new Map<string, bigint>();
  for (const { streamId, revision } of events) {
    if (inCategory(streamId, 'shift') && revision > (last.get(streamId) ?? -1n)) last.set(streamId, revision);
  }
  const streams = new Map<string, ReturnType<EventStore['readStream']>>();
  for (const [streamId, revision] of last) {
    const kept = followed.through(streamId, revision);
    if (kept) {
      streams.set(streamId, Promise.resolve({ events: kept, revision: kept.at(-1)!.revision }));
      continue;
    }
    const read = store.readStream(streamId);
    // A stream read ahead and then not asked for must not end the process if its read failed.
    read.then((result) => followed.learn(streamId, result.events)).catch(() => undefined);
    streams.set(streamId, read);
  }
  const ahead: EventStore = Object.create(store);
  ahead.readStream = (streamId, options) =>
    (options === undefined && streams.get(streamId)) || store.readStream(streamId, options);
  return ahead;
}

/** The events the planner reads: those that may be mailed, and every shift's, which it follows. */
export function plannerReads(event: RecordedEvent): boolean {
  return mayMail(event) || inCategory(event.streamId, 'shift');
}

/**
 * The same planning as a JetStream consumer's handler, one event at a time; events from before
 * mail was first started are passed over. A retry of a parked event plans it whatever its position:
 * the log-following planner's checkpoint is already past it.
 */
export function emailHandler(deps: MailPlannerDeps) {
  /** The shifts whose events came through here, so that later events need not read them. */
  const followed = new FollowedShifts();
  const plan = async (event: RecordedEvent, store = deps.store) => {
    if (!mayMail(event)) return;
    await deps.readModelsAt(event.position, PLANNING_READ_MODELS);
    await deps.sql.begin((tx) => planMails({ ...deps, store }, tx, event));
  };
  /**
   * Where mail started, once read: with the log-following planner stopped (it is, while this
   * consumer plans), nothing moves it again, and events after it are planned without asking.
   */
  let started: bigint | undefined;
  /** Whether an event is one mail was started before, and so passed over. */
  const before = async (event: RecordedEvent) => {
    if (started === undefined || event.position <= started) {
      const [start] = await deps.sql<
        { position: bigint }[]
      >`select position from process_checkpoints where name = ${NAME}`;
      started = start ? BigInt(start.position) : undefined;
    }
    return started !== undefined && event.position <= started;
  };
  return {
    name: NAME,
    wants: plannerReads,
    /** One event delivered alone: followed, and planned from the shifts followed, as a batch is. */
    async handle(event: RecordedEvent): Promise<void> {
      followed.follow([event]);
      if (mayMail(event) && !(await before(event)))
        await plan(event, readingAhead(deps.store, [event], followed));
    },
    /**
     * A busy stream's events planned together: one wait for the read models, one transaction. The
     * events are planned side by side, their reads going down the transaction's connection together
     * (the client pipelines them), and their deliveries are stored at the end in the events' order,
     * the order they are sent in. Should one fail, the whole batch is rolled back (all or nothing).
     */
    async handleBatch(events: RecordedEvent[]): Promise<void> {
      followed.follow(events);
      const wanted: RecordedEvent[] = [];
      for (const event of events) if (mayMail(event) && !(await before(event))) wanted.push(event);
      if (wanted.length === 0) return;
      await deps.readModelsAt(wanted.at(-1)!.position, PLANNING_READ_MODELS);
      const store = readingAhead(deps.store, wanted, followed);
      await deps.sql.begin(async (tx) => {
        const planned = await Promise.allSettled(
          wanted.map(async (event) => {
            const outbox: Delivery[] = [];
            await planMails({ ...deps, store, outbox }, tx, event);
            return outbox;
          }),
        );
        // Every plan has ended before anything is thrown: none is left sending on a rolled-back transaction.
        const failed = planned.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
        await storeDeliveries(
          tx,
          planned.flatMap((result) => (result.status === 'fulfilled' ? result.value : [])),
        );
      });
    },
    retry: (event: RecordedEvent) => plan(event),
  };
}
