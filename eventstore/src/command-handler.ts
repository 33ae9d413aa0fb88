import { createHash } from 'node:crypto';
import type { CommandContext, Decider, TypedEvent } from '@shiftcover/domain';
import type { PersonalDataVault } from './personal-data';
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

export interface HandleResult<Event> {
  events: Event[];
  /** Global position of the last event written (or first written, for a repeated command). */
  position: bigint;
  /** True when the command had already been handled: nothing new was written. */
  duplicate: boolean;
}

export class RetriesExhausted extends Error {
  constructor(readonly streamId: string) {
    super(`Too many concurrent changes to ${streamId}; try again`);
    this.name = 'RetriesExhausted';
  }
}

export interface CommandHandlerOptions {
  store: EventStore;
  vault: PersonalDataVault;
  upcasters?: readonly Upcaster[];
  maxAttempts?: number;
}

const SCHEMA_VERSION = 1;

/**
 * Handles a command on one stream, the same way for every aggregate: load the stream, decide,
 * append with the revision that was read, and on a concurrent change decide again.
 */
export class CommandHandler {
  private readonly store: EventStore;
  private readonly vault: PersonalDataVault;
  private readonly upcasters: readonly Upcaster[];
  private readonly maxAttempts: number;

  constructor(options: CommandHandlerOptions) {
    this.store = options.store;
    this.vault = options.vault;
    this.upcasters = options.upcasters ?? [];
    this.maxAttempts = options.maxAttempts ?? 20;
  }

  async load<C, E extends TypedEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
  ): Promise<LoadedStream<S>> {
    const { events, revision } = await this.store.readStream(streamId);
    const opened = await this.vault.open(events.map((event) => upcast(event, this.upcasters)));
    const state = opened.reduce(
      (s, event) => decider.evolve(s, toDomainEvent<E>(event)),
      decider.initialState(),
    );
    return { state, revision, events: opened };
  }

  async handle<C, E extends TypedEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<HandleResult<E>> {
    for (let attempt = 1; ; attempt++) {
      const { state, revision, events: stored } = await this.load(streamId, decider);
      const earlier = stored.filter((event) => event.metadata.commandId === trace.commandId);
      const last = earlier.at(-1);
      if (last)
        return { events: earlier.map((e) => toDomainEvent<E>(e)), position: last.position, duplicate: true };

      const events = decider.decide(command, state, context);
      if (events.length === 0) return { events, position: await this.headPosition(), duplicate: false };
      try {
        const position = await this.append(streamId, events, revision, context, trace);
        return { events, position, duplicate: false };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevision)) throw error;
        if (attempt >= this.maxAttempts) throw new RetriesExhausted(streamId);
        await pause(attempt);
      }
    }
  }

  /** Position of the last event in the store: what a command that changed nothing reports. */
  headPosition(): Promise<bigint> {
    return this.store.headPosition();
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

function toDomainEvent<E extends TypedEvent>(event: RecordedEvent): E {
  return { type: event.type, data: event.data } as E;
}

function metadataFor(context: CommandContext, trace: CommandTrace): EventMetadata {
  const { actor } = context;
  return {
    commandId: trace.commandId,
    correlationId: trace.correlationId ?? trace.commandId,
    causationId: trace.causationId ?? trace.commandId,
    actorId: actor.kind === 'user' ? actor.userId : `system:${actor.name}`,
    actorRole: actor.kind === 'user' ? actor.role : 'system',
    actorSuperAdmin: actor.kind === 'user' && actor.superAdmin,
    schemaVersion: SCHEMA_VERSION,
  };
}

/** Event ids derive from the command, so a command replayed after a crash writes nothing twice. */
function eventId(commandId: string, streamId: string, index: number): string {
  const hex = createHash('sha256').update(`${commandId}\u0000${streamId}\u0000${index}`).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function pause(attempt: number): Promise<void> {
  const ms = Math.min(50, 2 ** attempt) * Math.random();
  return new Promise((resolve) => setTimeout(resolve, ms));
}
