export type Role = 'developer' | 'admin' | 'staff';

/** Who issues a command. `system` is the timers and processes acting on their own. */
export type Actor =
  | { kind: 'user'; userId: string; role: Role; superAdmin: boolean }
  | { kind: 'system'; name: string };

const SYSTEM_PREFIX = 'system:';

/** The id an actor is recorded under: a user's id, or `system:<name>` for a timer or process. */
export function actorIdOf(actor: Actor): string {
  return actor.kind === 'user' ? actor.userId : `${SYSTEM_PREFIX}${actor.name}`;
}

/** Whether a recorded actor id names a timer or process rather than a person. */
export function isSystemActorId(actorId: string): boolean {
  return actorId.startsWith(SYSTEM_PREFIX);
}

export interface CommandContext {
  actor: Actor;
  /** The moment the command is decided; deciders never read a clock. */
  now: Date;
}

/**
 * An aggregate as a decider: pure and synchronous. `decide` returns the events a command
 * produces or throws a DomainError; `evolve` folds one event into the state.
 */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State, context: CommandContext): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
  /**
   * Folds many events at once into `state`, to the state `events.reduce(evolve, state)` gives: for
   * a decider whose step copies something that grows with its stream, a way to fold a long stream
   * (its load) in time that grows with the events alone. Optional: `foldInto` steps otherwise.
   */
  evolveAll?(state: State, events: readonly Event[]): State;
  /**
   * How the state is kept beside a stream that grows without end, so that a load reads what came
   * after it rather than the whole stream: the state as JSON, under `name` and `version`, and
   * `restore` to make it again. `version` changes whenever the state's shape or the fold changes,
   * so that a snapshot another version wrote is never used. Optional: without it, a stream is
   * always folded from its first event.
   */
  snapshot?: { name: string; version: number; restore(json: unknown): State };
}

export interface TypedEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export function fold<Command, Event, State>(decider: Decider<Command, Event, State>, events: Event[]): State {
  return foldInto(decider, decider.initialState(), events);
}

/** `events` folded into `state`: at once where the decider has a way (`evolveAll`), else step by step. */
export function foldInto<Command, Event, State>(
  decider: Decider<Command, Event, State>,
  state: State,
  events: readonly Event[],
): State {
  return decider.evolveAll ? decider.evolveAll(state, events) : events.reduce(decider.evolve, state);
}
