import { createHash } from 'node:crypto';
import {
  actorIdOf,
  type CommandContext,
  type Decider,
  DomainError,
  type TypedEvent,
  uuidFromDigest,
} from '@shiftcover/domain';
import { RetriesExhausted } from '@shiftcover/platform';
import { holdsPersonalData, type PersonalDataVault } from './personal-data';
import { type EventMetadata, type EventStore, type RecordedEvent, WrongExpectedRevision } from './port';
import { type Upcaster, upcast } from './upcasting';

/** How a command is traced: its id makes it idempotent; correlation and causation chain effects. */
export interface CommandTrace {
  commandId: string;
  correlationId?: string;
  causationId?: string;
}

export interface LoadedStream<State> {
  state: State;
  revision: bigint | 'no_stream';
  events: RecordedEvent[];
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
 * The steps a command takes on other streams around its own append: a shift command reserves the
 * time it gives someone on their schedule first, and releases the time it frees after.
 */
export interface AppendHooks<Command, Event, State> {
  /** Runs before the append; what it returns undoes it, and is run if the append fails. */
  beforeAppend?(decided: Decided<Command, Event, State>): Promise<(() => Promise<void>) | undefined>;
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
}

export interface CommandReport {
  type: string;
  /** `rejected`: refused by a rule; `failed`: anything else went wrong while deciding. */
  outcome: 'accepted' | 'duplicate' | 'rejected' | 'failed' | 'retried' | 'exhausted';
  /** The rejection's code, for `rejected`. */
  code?: string;
}

const SCHEMA_VERSION = 1;
/** How many streams are remembered folded (the least recently loaded is forgotten first). */
const REMEMBERED_STREAMS = 5_000;

/** A stream's state as of its event `lastEventId` (at `revision`), folded by `decider`. */
interface Snapshot {
  decider: object;
  state: unknown;
  revision: bigint;
  lastEventId: string;
  events: RecordedEvent[];
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
  private readonly snapshots = new Map<string, Snapshot>();
  private readonly report: (report: CommandReport) => void;

  constructor(options: CommandHandlerOptions) {
    this.store = options.store;
    this.vault = options.vault;
    this.upcasters = options.upcasters ?? [];
    this.maxAttempts = options.maxAttempts ?? 20;
    this.report = options.onCommand ?? (() => {});
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
          const state = fresh.reduce(
            (s, event) => decider.evolve(s, toDomainEvent<E>(event)),
            known.state as S,
          );
          const last = fresh.at(-1)!;
          return this.remember(streamId, {
            decider,
            state,
            revision: last.revision,
            lastEventId: last.id,
            events: [...known.events, ...fresh],
          });
        }
      }
      this.snapshots.delete(streamId);
    }
    const { events, revision } = await this.store.readStream(streamId);
    const current = events.map((event) => upcast(event, this.upcasters));
    const opened = await this.vault.open(current);
    const state = opened.reduce(
      (s, event) => decider.evolve(s, toDomainEvent<E>(event)),
      decider.initialState(),
    );
    const last = opened.at(-1);
    if (!last || current.some(holdsPersonalData)) return { state, revision, events: opened };
    return this.remember(streamId, {
      decider,
      state,
      revision: last.revision,
      lastEventId: last.id,
      events: opened,
    });
  }

  /** Whether `eventId`, at `revision`, is still the stream's last event: one short read. */
  async endsWith(streamId: string, revision: bigint, eventId: string): Promise<boolean> {
    const { events } = await this.store.readStream(streamId, { fromRevision: revision });
    return events.length === 1 && events[0]!.id === eventId;
  }

  private remember<S>(streamId: string, snapshot: Snapshot): LoadedStream<S> {
    const current = this.snapshots.get(streamId);
    // A slower load of the same stream never replaces a later snapshot.
    if (!current || current.revision <= snapshot.revision) {
      this.snapshots.delete(streamId);
      this.snapshots.set(streamId, snapshot);
      if (this.snapshots.size > REMEMBERED_STREAMS)
        this.snapshots.delete(this.snapshots.keys().next().value!);
    }
    return { state: snapshot.state as S, revision: snapshot.revision, events: [...snapshot.events] };
  }

  /**
   * Decides a command on the stream's current state and appends its events, deciding again on a
   * concurrent change. A command worked out from the state is worked out again on each attempt,
   * and not at all when the command had already been handled. `hooks` take the command's steps on
   * other streams before and after each append.
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
    for (let attempt = 1; ; attempt++) {
      const { state, revision, events: stored } = await this.load(streamId, decider);
      const earlier = stored.filter((event) => event.metadata.commandId === trace.commandId);
      const last = earlier.at(-1);
      if (last) {
        this.report({ type, outcome: 'duplicate' });
        const events = earlier.map((e) => toDomainEvent<E>(e));
        return { events, position: last.position, duplicate: true, state };
      }

      let decided: C;
      try {
        decided =
          typeof command === 'function' ? await (command as (state: S) => Promise<C>)(state) : command;
      } catch (error) {
        this.report(refusal(type, error));
        throw error;
      }
      type = typeOf(decided);
      const events = this.decide(decider, decided, state, context);
      if (events.length === 0) {
        this.report({ type, outcome: 'accepted' });
        return { events, position: await this.store.headPosition(), duplicate: false, state };
      }
      const step = { command: decided, state, events, attempt };
      const undo = await hooks.beforeAppend?.(step);
      let position: bigint;
      try {
        position = await this.append(streamId, events, revision, context, trace);
      } catch (error) {
        await undo?.();
        if (!(error instanceof WrongExpectedRevision)) throw error;
        if (attempt >= this.maxAttempts) {
          this.report({ type, outcome: 'exhausted' });
          throw new RetriesExhausted(streamId);
        }
        this.report({ type, outcome: 'retried' });
        await pause(attempt);
        continue;
      }
      await hooks.afterAppend?.(step);
      this.report({ type, outcome: 'accepted' });
      return { events, position, duplicate: false, state: events.reduce(decider.evolve, state) };
    }
  }

  /** The decider's answer to `command`; a rejection is reported with its code. */
  private decide<C, E extends TypedEvent, S>(
    decider: Decider<C, E, S>,
    command: C,
    state: S,
    context: CommandContext,
  ): E[] {
    try {
      return decider.decide(command, state, context);
    } catch (error) {
      this.report(refusal(typeOf(command), error));
      throw error;
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
    const metadata = metadataFor(context, trace);
    const sealed = await this.vault.seal(
      events.map((event, index) => ({
        id: eventId(trace.commandId, streamId, index),
        type: event.type,
        data: event.data as Record<string, unknown>,
        metadata,
      })),
    );
    const result = await this.store.append(streamId, sealed, expected);
    return result.position;
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
  return uuidFromDigest(
    createHash('sha256').update(`${commandId}\u0000${streamId}\u0000${index}`).digest('hex'),
  );
}

function pause(attempt: number): Promise<void> {
  const ms = Math.min(50, 2 ** attempt) * Math.random();
  return new Promise((resolve) => setTimeout(resolve, ms));
}
