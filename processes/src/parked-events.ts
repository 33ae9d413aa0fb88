import type { CommandContext } from '@shiftcover/domain';
import { type CommandTrace, type EventStore, PersonalDataVault } from '@shiftcover/eventstore';
import {
  type EventConsumer,
  type ParkedEvent,
  projectionConsumer,
  projections,
  retryParkedEvent,
  skipParkedEvent,
} from '@shiftcover/projections';
import type { Sql } from 'postgres';
import type { Commands } from './commands';
import type { EventHandler } from './nats/consumer';

export interface ParkedEventDeps {
  sql: Sql;
  store: EventStore;
  service: Commands;
  /** The processes running here, by consumer name; every read model is always known. */
  handlers: readonly EventHandler[];
}

/** Who decided, and the operation's id (one decision, one `operation-<id>` stream). */
export interface Decision {
  operationId: string;
  context: CommandContext;
  trace: CommandTrace;
}

const refOf = (parked: ParkedEvent) => ({
  consumer: parked.consumer,
  eventId: parked.eventId,
  eventType: parked.eventType,
  position: parked.position.toString(),
});

/**
 * An operator's retry of a parked event (docs/operations.md §6): given to its read model or
 * process again, then recorded as an operation whether it applied or failed once more.
 */
export async function retryParked(deps: ParkedEventDeps, consumer: string, eventId: string, by: Decision) {
  const opened = { sql: deps.sql, store: deps.store, vault: new PersonalDataVault(deps.sql) };
  const consumers: EventConsumer[] = [
    ...projections.map((p) => projectionConsumer(opened, p)),
    ...deps.handlers.map((h) => ({ name: h.name, handle: h.retry ?? h.handle })),
  ];
  const outcome = await retryParkedEvent(opened, consumers, consumer, eventId);
  const error = outcome.applied ? null : outcome.error;
  const { position } = await deps.service.operation(
    by.operationId,
    {
      type: 'RecordParkedEventRetried',
      data: { ...refOf(outcome.parked), applied: outcome.applied, error },
    },
    by.context,
    by.trace,
  );
  return { ...outcome, position };
}

/** An operator's decision that a parked event is never to be applied by that consumer, with why. */
export async function skipParked(
  deps: Pick<ParkedEventDeps, 'sql' | 'service'>,
  consumer: string,
  eventId: string,
  reason: string,
  by: Decision,
) {
  const parked = await skipParkedEvent(deps.sql, consumer, eventId, reason);
  const { position } = await deps.service.operation(
    by.operationId,
    { type: 'RecordParkedEventSkipped', data: { ...refOf(parked), reason } },
    by.context,
    by.trace,
  );
  return { parked, position };
}
