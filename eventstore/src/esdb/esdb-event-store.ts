import {
  type AllStreamResolvedEvent,
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  jsonEvent,
  NO_STREAM,
  type Position,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
  WrongExpectedRevision,
} from '../port';

export interface EsdbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false` */
  connectionString: string;
}

/**
 * The port over EventStoreDB. Revisions are already 0-based there. A global position is the
 * event's prepare position in the transaction log: unique per event and increasing in log order
 * (the commit position is shared by the events of one append).
 */
export function createEsdbEventStore({ connectionString }: EsdbEventStoreOptions): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);

  const fromPosition = (after: bigint): Position | typeof START =>
    after === 0n ? START : { commit: after, prepare: after };

  function toRecorded(resolved: AllStreamResolvedEvent | { event?: unknown }): RecordedEvent | undefined {
    const event = resolved.event as
      | {
          id: string;
          type: string;
          streamId: string;
          revision: bigint;
          created: Date;
          data: unknown;
          metadata: unknown;
          isJson: boolean;
          position?: Position;
        }
      | undefined;
    if (!event?.isJson || event.type.startsWith('$') || event.streamId.startsWith('$')) return undefined;
    return {
      id: event.id,
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata: event.metadata as EventMetadata,
      streamId: event.streamId,
      revision: event.revision,
      position: event.position?.prepare ?? 0n,
      recordedAt: event.created,
    };
  }

  async function append(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    try {
      const result = await client.appendToStream(
        streamId,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
        { expectedRevision: expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : expected },
      );
      return { nextRevision: result.nextExpectedRevision, position: result.position?.prepare ?? 0n };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion === NO_STREAM ? 'no_stream' : (error.actualVersion as bigint);
        throw new WrongExpectedRevision(streamId, expected, actual);
      }
      throw error;
    }
  }

  async function readStream(streamId: string): Promise<ReadStreamResult> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(streamId, { fromRevision: START })) {
        const event = toRecorded(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { events: [], revision: 'no_stream' };
      throw error;
    }
    return { events, revision: events.at(-1)?.revision ?? 'no_stream' };
  }

  async function readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    // System events count towards maxCount, so read on until enough of ours have arrived.
    for await (const resolved of client.readAll({ fromPosition: fromPosition(after) })) {
      const event = toRecorded(resolved);
      if (event && event.position > after) events.push(event);
      if (events.length >= limit) break;
    }
    return events;
  }

  async function headPosition(): Promise<bigint> {
    for await (const resolved of client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1000,
    })) {
      const event = toRecorded(resolved);
      if (event) return event.position;
    }
    return 0n;
  }

  function subscribeToAll(after: bigint, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const subscription = client.subscribeToAll({
      fromPosition: fromPosition(after),
      filter: excludeSystemEvents(),
    });
    let stopped = false;
    const done = (async () => {
      for await (const resolved of subscription) {
        if (stopped) break;
        const event = toRecorded(resolved);
        if (event && event.position > after) await handler(event);
      }
    })();
    return {
      done,
      async stop() {
        stopped = true;
        await subscription.unsubscribe();
        await done.catch(() => undefined);
      },
    };
  }

  function watch(listener: () => void): () => Promise<void> {
    const subscription = client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    subscription.on('data', () => listener());
    subscription.on('error', () => undefined);
    return () => subscription.unsubscribe();
  }

  return { append, readStream, readAll, subscribeToAll, headPosition, watch, close: () => client.dispose() };
}
