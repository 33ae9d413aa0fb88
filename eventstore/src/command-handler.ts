import { hash } from 'node:crypto';
import {
  actorIdOf,
  type CommandContext,
  type Decider,
  DomainError,
  foldInto,
  type TypedEvent,
  uuidFromDigest,
} from '@shiftcover/domain';
import { RetriesExhausted } from '@shiftcover/platform';
import { holdsPersonalData, type PersonalDataVault } from './personal-data';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevision,
} from './port';
import { Recent } from './recent';
import type { SnapshotStore } from './snapshots';
import { StreamHeads } from './stream-heads';
import { type Upcaster, upcast } from './upcasting';

/** How a command is traced: its id makes it idempotent; correlation and causation chain effects. */
export interface CommandTrace {
  commandId: string;
  correlationId?: string;
  causationId?: string;
  /**
   * Streams the command reads, read while the caller was still being checked (`readAhead`): the
   * first read of each in `handle` is that one rather than another trip to the store.
   */
  readAhead?: ReadAhead;
}

/** Streams' loads begun ahead of their command (see `CommandHandler.readAhead`). */
export interface ReadAhead {
  /**
   * The load of this stream folded by this decider, to the first who asks; undefined after (a
   * later read reads for itself) and for a stream not read ahead.
   */
  take<S>(streamId: string, decider: object): Promise<LoadedStream<S>> | undefined;
}

export interface LoadedStream<State> {
  state: State;
  revision: bigint | 'no_stream';
  /** The id of the stream's last event; none for a stream without events. */
  lastEventId?: string;
  /**
   * The ids of the commands that wrote to the stream (each one did; a remembered stream's may
   * already name commands whose events came after `revision`). Only the ids, not the events: a
   * person's schedule grows without end, and a remembered stream holding every event of it would
   * too. A repeated command's events are read again to answer it (`history`).
   */
  commandIds: ReadonlySet<string>;
}

/** No command: a stream recalled without reading, whose repeats `recall` has already turned away. */
const NO_COMMANDS: ReadonlySet<string> = new Set();

/** The ids of the commands that wrote `events`, added to `into` (a new set when not given). */
function commandIdsOf(events: readonly RecordedEvent[], into = new Set<string>()): Set<string> {
  for (const event of events) into.add(event.metadata.commandId);
  return into;
}

export interface HandleResult<Event, State = unknown> {
  events: Event[];
  /** Global position of the last event written (or first written, for a repeated command). */
  position: bigint;
  /** True when the command had already been handled: nothing new was written. */
  duplicate: boolean;
  /** The stream's state after the command. */
  state: State;
}

/** A command decided on its stream's state, about to be or just appended. */
export interface Decided<Command, Event, State> {
  command: Command;
  state: State;
  events: Event[];
  /** Which attempt this is, from 1; after a concurrent change the command is decided again. */
  attempt: number;
}

/**
 * Events decided on another stream for a command, to be stored with the command's own events in
 * one transaction. `state` and `revision` are what they were decided on: the append expects that
 * revision, so it fails, and the command is decided again, if the stream moved meanwhile.
 */
export interface Alongside {
  streamId: string;
  decider: Decider<never, TypedEvent, unknown>;
  state: unknown;
  revision: bigint | 'no_stream';
  events: TypedEvent[];
  trace: CommandTrace;
}

/**
 * The steps a command takes on other streams around its own append: a shift command reserves the
 * time it gives someone on their schedule first, and releases the time it frees after.
 */
export interface AppendHooks<Command, Event, State> {
  /**
   * Events on another stream that must be stored with this decision's, in the same transaction.
   * Used when the store can append to several streams at once (`EventStore.appendTogether`); then
   * `beforeAppend` is not run. A store that cannot runs `beforeAppend` instead.
   */
  alongside?(decided: Decided<Command, Event, State>): Promise<Alongside | undefined>;
  /** Runs before the append; what it returns undoes it, and is run if the append fails. */
  beforeAppend?(decided: Decided<Command, Event, State>): Promise<(() => Promise<void>) | undefined>;
  /**
   * Whether `beforeAppend` has anything to do for this decision. Given, a command is first decided
   * on the remembered state, as one without hooks is, and read again only when it has steps to
   * take; without it, every command with a `beforeAppend` reads its stream first.
   */
  stepsBefore?(decided: Decided<Command, Event, State>): boolean;
  /** Runs once the events are stored. */
  afterAppend?(decided: Decided<Command, Event, State>): Promise<void>;
}

export interface CommandHandlerOptions {
  store: EventStore;
  vault: PersonalDataVault;
  upcasters?: readonly Upcaster[];
  maxAttempts?: number;
  /** Told what became of each command, and of each attempt lost to a concurrent change (metrics). */
  onCommand?: (report: CommandReport) => void;
  /** How much is remembered folded: streams, and events folded into them (see `REMEMBERED`). */
  remembered?: { streams: number; events: number };
  /**
   * Where the states of long streams are kept between loads, for deciders that keep them
   * (`Decider.snapshot`): without it, every load of a stream not remembered reads it whole.
   */
  snapshotStore?: SnapshotStore;
}

export interface CommandReport {
  type: string;
  /** `rejected`: refused by a rule; `failed`: anything else went wrong while deciding. */
  outcome: 'accepted' | 'duplicate' | 'rejected' | 'failed' | 'retried' | 'exhausted';
  /** The rejection's code, for `rejected`. */
  code?: string;
}

const SCHEMA_VERSION = 1;
/**
 * How much is remembered folded, the least recently used forgotten first: at most 5,000 streams,
 * and about 250,000 events folded into them. A stream's folded state grows with its events (a
 * person's schedule holds every shift they took: some 2,500 events and 1.4 MB at ten years), so a
 * count of streams alone would not bound the memory; with both, the remembered states take about
 * 150 MB at most, whatever the length of the histories.
 */
const REMEMBERED = { streams: 5_000, events: 250_000 };

/**
 * A stream whose decider keeps snapshots has its state kept again when a load finds this many
 * events after the snapshot kept before (or after its start): the next load of it, after a restart
 * or once it is forgotten, reads the snapshot and the events after it rather than the whole
 * stream. A person's schedule takes about two years of full-time work to get there, and its state
 * is written whole (some 0.7 MB of JSON at ten years).
 */
export const SNAPSHOT_EVERY = 500n;

/** Under what a decider's snapshots are kept: its name and version; none when it keeps none. */
export function snapshotKind(decider: { snapshot?: { name: string; version: number } }): string | undefined {
  return decider.snapshot && `${decider.snapshot.name}@${decider.snapshot.version}`;
}

/** A stream's state as of its event `lastEventId` (at `revision`), folded by `decider`. */
interface Snapshot {
  decider: object;
  state: unknown;
  revision: bigint;
  lastEventId: string;
  /**
   * The commands that wrote to the stream, as of `revision` at least: shared with the later
   * snapshots of the stream, which add to it, so a longer stream costs no copy (every id in it did
   * write to the stream).
   */
  commandIds: Set<string>;
  /** The stream after this handler's own appends since it was last read, when there were any. */
  ahead?: Ahead;
  /** The revision of the snapshot kept of the stream (`SnapshotStore`), -1 when none is. */
  stored: bigint;
}

/** An append's outcome, and whether any of its events holds personal data. */
interface Written extends AppendResult {
  personal: boolean;
  /** The same of the events stored alongside, in the same transaction. */
  alongside?: AppendResult & { personal: boolean };
}

/** What this handler's own appends made of a remembered stream, known without reading it back. */
interface Ahead {
  state: unknown;
  revision: bigint;
  /** The commands those appends came from: this snapshot's own set, added to as appends go on. */
  commandIds: Set<string>;
}

/**
 * Handles a command on one stream, the same way for every aggregate: load the stream, decide,
 * append with the revision that was read, and on a concurrent change decide again.
 */
export class CommandHandler {
  private readonly store: EventStore;
  private readonly vault: PersonalDataVault;
  private readonly upcasters: readonly Upcaster[];
  private readonly maxAttempts: number;
  private readonly snapshots: Recent<string, Snapshot>;
  private readonly heads: StreamHeads;
  private readonly snapshotStore: SnapshotStore | undefined;
  private readonly report: (report: CommandReport) => void;

  constructor(options: CommandHandlerOptions) {
    this.store = options.store;
    this.heads = new StreamHeads(options.store);
    this.snapshotStore = options.snapshotStore;
    this.vault = options.vault;
    this.upcasters = options.upcasters ?? [];
    this.maxAttempts = options.maxAttempts ?? 20;
    this.report = options.onCommand ?? (() => {});
    const remembered = options.remembered ?? REMEMBERED;
    // A snapshot weighs the events folded into it when it was remembered.
    this.snapshots = new Recent(remembered.streams, {
      limit: remembered.events,
      of: (snapshot) => Number(snapshot.revision) + 1,
    });
  }

  /** How many streams are remembered folded, and how many events were folded into them. */
  get rememberedSize(): { streams: number; events: number } {
    return { streams: this.snapshots.size, events: this.snapshots.weight };
  }

  /**
   * The stream's current state. Streams that hold no personal data are remembered folded and
   * brought up to date by reading only the events after the remembered one, so a long stream
   * costs one short read. A stream with sealed personal data is opened and folded afresh each
   * time, so that erasing its subject's key takes effect on the next load.
   */
  async load<C, E extends TypedEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
  ): Promise<LoadedStream<S>> {
    const known = this.snapshots.get(streamId);
    if (known?.decider === decider) {
      const tail = await this.store.readStream(streamId, { fromRevision: known.revision });
      // The remembered event must still be there: a store reset since then starts afresh.
      if (tail.events[0]?.id === known.lastEventId) {
        const fresh = tail.events.slice(1).map((event) => upcast(event, this.upcasters));
        if (fresh.length === 0) return this.remember(streamId, known);
        if (!fresh.some(holdsPersonalData)) {
          const state = foldInto(decider, known.state as S, fresh.map(toDomainEvent<E>));
          const last = fresh.at(-1)!;
          return this.remember(streamId, {
            decider,
            state,
            revision: last.revision,
            lastEventId: last.id,
            commandIds: commandIdsOf(fresh, known.commandIds),
            stored: known.stored,
          });
        }
      }
      this.snapshots.delete(streamId);
    }
    // Only for a decider that keeps snapshots: the others' reads begin at once (see `readAhead`).
    const kind = snapshotKind(decider);
    if (kind && this.snapshotStore) {
      const kept = await this.fromSnapshot(streamId, decider, kind, this.snapshotStore);
      if (kept) return kept;
    }
    const { events, revision, personal } = await this.readWhole(streamId);
    const state = foldInto(decider, decider.initialState(), events.map(toDomainEvent<E>));
    const last = events.at(-1);
    const commandIds = commandIdsOf(events);
    if (!last || personal) return { state, revision, lastEventId: last?.id, commandIds };
    return this.remember(streamId, {
      decider,
      state,
      revision: last.revision,
      lastEventId: last.id,
      commandIds,
      stored: -1n,
    });
  }

  /**
   * The stream folded on from its snapshot kept under `kind` with the events after it; undefined when none is kept, or the one kept cannot be used: it is no longer the
   * stream's (a store begun afresh; it is then let go), cannot be restored, or events after it hold
   * personal data (never remembered, see `load`). The stream is then read whole.
   */
  private async fromSnapshot<C, E extends TypedEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    kind: string,
    snapshotStore: SnapshotStore,
  ): Promise<LoadedStream<S> | undefined> {
    try {
      const kept = await snapshotStore.read(streamId, kind);
      if (!kept) return undefined;
      const tail = await this.store.readStream(streamId, { fromRevision: kept.revision });
      if (tail.events[0]?.id !== kept.lastEventId) {
        await snapshotStore.forget(streamId, kind);
        return undefined;
      }
      const fresh = tail.events.slice(1).map((event) => upcast(event, this.upcasters));
      if (fresh.some(holdsPersonalData)) return undefined;
      const restored = decider.snapshot!.restore(JSON.parse(kept.state));
      const last = fresh.at(-1);
      return this.remember(streamId, {
        decider,
        state: foldInto(decider, restored, fresh.map(toDomainEvent<E>)),
        revision: last?.revision ?? kept.revision,
        lastEventId: last?.id ?? kept.lastEventId,
        commandIds: commandIdsOf(fresh, new Set(kept.commandIds)),
        stored: kept.revision,
      });
    } catch {
      // A snapshot is a shortcut, never the truth: whatever went wrong, the stream is read whole.
      return undefined;
    }
  }

  /**
   * The stream's events as a load folds them (old shapes brought up to date, personal data opened),
   * read afresh from the store: for the audit's replay of a stream, and the answer to a repeated
   * command.
   */
  async history(streamId: string): Promise<RecordedEvent[]> {
    return (await this.readWhole(streamId)).events;
  }

  private async readWhole(streamId: string) {
    const { events, revision } = await this.store.readStream(streamId);
    const current = events.map((event) => upcast(event, this.upcasters));
    return {
      events: await this.vault.open(current),
      revision,
      personal: current.some(holdsPersonalData),
    };
  }

  /**
   * Begins loading the streams a command about to be handled will read, so that those reads travel
   * together, beside whatever comes first (the caller's permission check, say), instead of after
   * it. Handed to `handle` in the command's trace, each serves as the command's first read of its
   * stream, provided that nothing was appended by the command before: a read made a moment before
   * the command was allowed is as current as one made just after, and the append expects its
   * revision all the same. A load not taken (the caller refused, say) is dropped, its outcome unheard.
   */
  readAhead(reads: readonly { streamId: string; decider: Decider<never, TypedEvent, unknown> }[]): ReadAhead {
    const loads = new Map(
      reads.map(({ streamId, decider }) => {
        const loaded = this.load(streamId, decider);
        loaded.catch(() => undefined);
        return [streamId, { decider: decider as object, loaded }] as const;
      }),
    );
    return {
      take<S>(streamId: string, decider: object) {
        const found = loads.get(streamId);
        if (found?.decider !== decider) return undefined;
        loads.delete(streamId);
        return found.loaded as Promise<LoadedStream<S>>;
      },
    };
  }

  /**
   * The stream as read, once `command` is found allowed on it: a command the stream refuses as it
   * stands is refused here, and reported as `handle` reports a refusal, before the steps a caller
   * takes ahead of `handle` (reserving a unique value, say), so that a refused request writes nothing.
   * A command the stream already holds is left for `handle` to answer as a repeat; `handle` decides
   * again, on the stream as it then is.
   */
  async allowedAsItStands<C, E extends TypedEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<LoadedStream<S>> {
    const loaded = await this.load(streamId, decider);
    if (loaded.commandIds.has(trace.commandId)) return loaded;
    try {
      decider.decide(command, loaded.state, context);
    } catch (error) {
      this.report(refusal(typeOf(command), error));
      throw error;
    }
    return loaded;
  }

  /**
   * The stream as this handler last left it, without reading it, when it is remembered (`recalled`),
   * else as read. For a decision stored by an append that expects this revision: should the stream
   * have moved since, the append fails. Its events are those read, none when recalled.
   */
  async latest<C, E extends TypedEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
  ): Promise<LoadedStream<S> & { recalled: boolean }> {
    const recalled = this.recall<S>(streamId, decider);
    return recalled
      ? { ...recalled, recalled: true }
      : { ...(await this.load(streamId, decider)), recalled: false };
  }

  /**
   * The remembered stream as this handler last left it, without reading it; undefined when it is
   * not remembered, or when `commandId` already wrote to it (a repeat is answered from a read).
   * Whether it is still current is for the append to tell: it expects this revision.
   */
  private recall<S>(streamId: string, decider: object, commandId?: string): LoadedStream<S> | undefined {
    const known = this.snapshots.get(streamId);
    if (known?.decider !== decider) return undefined;
    const repeated =
      commandId !== undefined && (known.ahead?.commandIds.has(commandId) || known.commandIds.has(commandId));
    if (repeated) return undefined;
    const head = known.ahead ?? known;
    return { state: head.state as S, revision: head.revision, commandIds: NO_COMMANDS };
  }

  /**
   * Remembers what an append that expected `after` made of the stream, so the next command on it
   * needs no read. Only when the remembered stream was at `after`: a concurrent load or append in
   * this process may have moved it, and then the next command reads. Events holding personal data
   * are never remembered (see `load`).
   */
  private advance(
    streamId: string,
    decider: object,
    after: bigint | 'no_stream',
    written: { state: unknown; revision: bigint; commandId: string; personal: boolean },
  ): void {
    const known = this.snapshots.get(streamId);
    if (known?.decider !== decider) return;
    if (written.personal) {
      this.snapshots.delete(streamId);
      return;
    }
    if ((known.ahead ?? known).revision !== after) return;
    // Added to rather than copied: a stream this handler alone writes to (a person's schedule, say)
    // may go a long time without being read again, and a copy would cost more with every command.
    const commandIds = known.ahead?.commandIds ?? new Set<string>();
    commandIds.add(written.commandId);
    known.ahead = { state: written.state, revision: written.revision, commandIds };
  }

  /**
   * Whether `eventId`, at `revision`, is still the stream's last event: one short read, shared with
   * the other streams asked about at the same moment (`StreamHeads`).
   */
  async endsWith(streamId: string, revision: bigint, eventId: string): Promise<boolean> {
    const head = await this.heads.of(streamId);
    return head?.revision === revision && head.eventId === eventId;
  }

  private remember<S>(streamId: string, snapshot: Snapshot): LoadedStream<S> {
    const current = this.snapshots.get(streamId);
    // A slower load of the same stream never replaces a later snapshot.
    if (!current || current.revision <= snapshot.revision) {
      this.snapshots.set(streamId, snapshot);
      this.keep(streamId, snapshot);
    }
    const { state, revision, lastEventId, commandIds } = snapshot;
    return { state: state as S, revision, lastEventId, commandIds };
  }

  /**
   * Keeps the state of a remembered stream in the snapshot store once `SNAPSHOT_EVERY` events came
   * after the one kept before, without waiting for it: a snapshot that fails to be written costs
   * the next load a longer read, nothing else.
   */
  private keep(streamId: string, snapshot: Snapshot): void {
    const kind = snapshotKind(snapshot.decider);
    if (!kind || !this.snapshotStore || snapshot.revision - snapshot.stored < SNAPSHOT_EVERY) return;
    // Claimed at once, so that the loads that follow before it is written do not write it again.
    snapshot.stored = snapshot.revision;
    this.snapshotStore
      .write(streamId, kind, {
        revision: snapshot.revision,
        lastEventId: snapshot.lastEventId,
        state: JSON.stringify(snapshot.state),
        commandIds: [...snapshot.commandIds],
      })
      .catch(() => undefined);
  }

  /**
   * Decides a command on the stream's current state and appends its events, deciding again on a
   * concurrent change. A command worked out from the state is worked out again on each attempt,
   * and not at all when the command had already been handled. `hooks` take the command's steps on
   * other streams before and after each append.
   *
   * The first attempt on a remembered stream, for a command with no steps before its append (none
   * at all, or none for this decision, as `stepsBefore` tells), decides on the state this handler
   * last left it in, without reading it: its append expects that revision, so it fails if anything was added
   * since, and only a written outcome stands. A refusal, a repeat or nothing to do is settled by
   * the next attempt, on the stream as read, as is a lost append (reported as retried).
   */
  async handle<C, E extends TypedEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C | ((state: S) => Promise<C>),
    context: CommandContext,
    trace: CommandTrace,
    hooks: AppendHooks<C, E, S> = {},
  ): Promise<HandleResult<E, S>> {
    let type = typeOf(command);
    // The stream's read begun ahead of this command, if any: the first attempt's, in place of
    // recalling the stream or reading it again.
    let ahead = trace.readAhead?.take<S>(streamId, decider);
    const read = async () => {
      const begun = ahead;
      ahead = undefined;
      return (begun && (await begun.catch(() => undefined))) ?? this.load(streamId, decider);
    };
    for (let attempt = 1; ; attempt++) {
      // Not for a command with steps on other streams: should the remembered state prove stale, those
      // steps (a reservation, then its release) would cost more than the read they save.
      const recallable = !hooks.beforeAppend || hooks.stepsBefore !== undefined;
      const recalled =
        attempt === 1 && recallable && !ahead
          ? this.recall<S>(streamId, decider, trace.commandId)
          : undefined;
      const { state, revision, commandIds } = recalled ?? (await read());
      if (commandIds.has(trace.commandId)) {
        // A repeat: answered with the events the command wrote the first time, and the stream's
        // state, from the stream read again.
        const history = await this.history(streamId);
        const earlier = history.filter((event) => event.metadata.commandId === trace.commandId);
        const last = earlier.at(-1);
        if (last) {
          this.report({ type, outcome: 'duplicate' });
          const events = earlier.map((e) => toDomainEvent<E>(e));
          const now = foldInto(decider, decider.initialState(), history.map(toDomainEvent<E>));
          return { events, position: last.position, duplicate: true, state: now };
        }
      }

      let decided: C;
      let events: E[];
      try {
        decided =
          typeof command === 'function' ? await (command as (state: S) => Promise<C>)(state) : command;
        type = typeOf(decided);
        events = decider.decide(decided, state, context);
      } catch (error) {
        if (recalled) continue;
        this.report(refusal(type, error));
        throw error;
      }
      if (events.length === 0) {
        if (recalled) continue;
        this.report({ type, outcome: 'accepted' });
        return { events, position: await this.store.headPosition(), duplicate: false, state };
      }
      const step = { command: decided, state, events, attempt };
      // Steps on other streams are taken only on the stream as read (see above).
      if (recalled && hooks.beforeAppend && hooks.stepsBefore?.(step) !== false) continue;
      const together = this.store.appendTogether && hooks.alongside;
      let along: Alongside | undefined;
      try {
        along = await together?.(step);
      } catch (error) {
        this.report(refusal(type, error));
        throw error;
      }
      const undo = together ? undefined : await hooks.beforeAppend?.(step);
      let written: Written;
      try {
        const outcome = along
          ? await this.writeTogether(streamId, events, revision, along, context, trace)
          : await this.write(streamId, events, revision, context, trace);
        if (outcome === 'repeated') {
          // Part of it was stored before, by another execution of the command: nothing was written
          // now, and the next attempt reads what was.
          if (attempt >= this.maxAttempts) {
            this.report({ type, outcome: 'exhausted' });
            throw new RetriesExhausted(streamId);
          }
          continue;
        }
        if (outcome.alreadyStored) {
          // These very events (their ids derive from the command) were stored before, by another
          // execution of the command that got in first: nothing was written now, and the next
          // attempt reads what was, to answer with it.
          if (attempt >= this.maxAttempts) {
            this.report({ type, outcome: 'exhausted' });
            throw new RetriesExhausted(streamId);
          }
          continue;
        }
        written = outcome;
      } catch (error) {
        await undo?.();
        if (!(error instanceof WrongExpectedRevision)) throw error;
        if (attempt >= this.maxAttempts) {
          this.report({ type, outcome: 'exhausted' });
          throw new RetriesExhausted(streamId);
        }
        this.report({ type, outcome: 'retried' });
        // A remembered state found stale is read again at once; a race lost on a read one backs off.
        if (!recalled) await pause(attempt);
        continue;
      }
      const nextRevision = (revision === 'no_stream' ? -1n : revision) + BigInt(events.length);
      if (recalled && written.nextRevision !== nextRevision) {
        // The store already held these events (their ids derive from the command), and cannot say
        // so (see above): the command was handled elsewhere since this handler last saw the
        // stream. A read answers the repeat.
        continue;
      }
      const after = events.reduce(decider.evolve, state);
      this.advance(streamId, decider, revision, {
        state: after,
        revision: nextRevision,
        commandId: trace.commandId,
        personal: written.personal,
      });
      if (along && written.alongside) {
        this.advance(along.streamId, along.decider, along.revision, {
          state: along.events.reduce(
            along.decider.evolve as (s: unknown, e: TypedEvent) => unknown,
            along.state,
          ),
          revision: written.alongside.nextRevision,
          commandId: along.trace.commandId,
          personal: written.alongside.personal,
        });
      }
      await hooks.afterAppend?.(step);
      this.report({ type, outcome: 'accepted' });
      return { events, position: written.position, duplicate: false, state: after };
    }
  }

  /** Appends already-decided events; used where a caller decides across streams itself. */
  async append(
    streamId: string,
    events: TypedEvent[],
    expected: bigint | 'no_stream' | 'any',
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<bigint> {
    return (await this.write(streamId, events, expected, context, trace)).position;
  }

  /**
   * Seals both streams' events and appends them in one transaction; 'repeated' when part of it was
   * already stored (nothing is written then).
   */
  private async writeTogether(
    streamId: string,
    events: TypedEvent[],
    expected: bigint | 'no_stream',
    along: Alongside,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<Written | 'repeated'> {
    const own = await this.seal(streamId, events, context, trace);
    const other = await this.seal(along.streamId, along.events, context, along.trace);
    const outcome = await this.store.appendTogether!([
      { streamId, events: own, expected },
      { streamId: along.streamId, events: other, expected: along.revision },
    ]);
    if (outcome.outcome === 'repeated') return 'repeated';
    const [mine, theirs] = outcome.results as [AppendResult, AppendResult];
    return {
      ...mine,
      personal: own.some(holdsPersonalData),
      alongside: { ...theirs, personal: other.some(holdsPersonalData) },
    };
  }

  /** The events as stored: ids from the command, its metadata, personal data sealed. */
  private seal(
    streamId: string,
    events: TypedEvent[],
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<NewEvent[]> {
    const metadata = metadataFor(context, trace);
    return this.vault.seal(
      events.map((event, index) => ({
        id: eventId(trace.commandId, streamId, index),
        type: event.type,
        data: event.data as Record<string, unknown>,
        metadata,
      })),
    );
  }

  /** Seals and appends; tells where the events went and whether any holds personal data. */
  private async write(
    streamId: string,
    events: TypedEvent[],
    expected: bigint | 'no_stream' | 'any',
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<Written> {
    const sealed = await this.seal(streamId, events, context, trace);
    const result = await this.store.append(streamId, sealed, expected);
    return { ...result, personal: sealed.some(holdsPersonalData) };
  }
}

/** A command's `type`, when it is an object that has one. */
function typeOf(command: unknown): string {
  const type = (command as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : 'unknown';
}

/** What an error thrown while deciding means: a rule's rejection with its code, or a failure. */
function refusal(type: string, error: unknown): CommandReport {
  return error instanceof DomainError
    ? { type, outcome: 'rejected', code: error.code }
    : { type, outcome: 'failed' };
}

function toDomainEvent<E extends TypedEvent>(event: RecordedEvent): E {
  return { type: event.type, data: event.data } as E;
}

function metadataFor(context: CommandContext, trace: CommandTrace): EventMetadata {
  const { actor } = context;
  return {
    commandId: trace.commandId,
    correlationId: trace.correlationId ?? trace.commandId,
    causationId: trace.causationId ?? trace.commandId,
    actorId: actorIdOf(actor),
    actorRole: actor.kind === 'user' ? actor.role : 'system',
    actorSuperAdmin: actor.kind === 'user' && actor.superAdmin,
    schemaVersion: SCHEMA_VERSION,
  };
}

/** Event ids derive from the command, so a command replayed after a crash writes nothing twice. */
function eventId(commandId: string, streamId: string, index: number): string {
  return uuidFromDigest(hash('sha256', `${commandId}\u0000${streamId}\u0000${index}`, 'hex'));
}

function pause(attempt: number): Promise<void> {
  const ms = Math.min(50, 2 ** attempt) * Math.random();
  return new Promise((resolve) => setTimeout(resolve, ms));
}
