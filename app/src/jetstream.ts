import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { Logger } from '@shiftcover/platform';
import {
  EVENTS_STREAM,
  EventBridge,
  type EventHandler,
  ensureEventsStream,
  JetStreamConsumer,
} from '@shiftcover/processes';
import type { Runtime } from './runtime';

/** With NATS: the log is bridged to JetStream and each process manager is a durable consumer. */
export async function startJetStream(
  url: string,
  runtime: Runtime,
  handlers: EventHandler[],
  logger: Logger,
) {
  // Without async traces: the client would otherwise build an error (and its stack) for every
  // publish and request in case it fails, a cost paid on each event the bridge sends.
  const nc = await connect({ servers: url, maxReconnectAttempts: -1, noAsyncTraces: true });
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  await ensureEventsStream(jsm);
  const consumers = handlers.map(
    (handler) => new JetStreamConsumer({ sql: runtime.sql, js, jsm, handler, log: logger }),
  );
  for (const consumer of consumers) await consumer.start();
  // An event no consumer reads is not published: a claim's reservation on a person's schedule, say.
  const publishes = (event: RecordedEvent) => handlers.some((handler) => handler.wants?.(event) ?? true);
  const bridge = new EventBridge({ sql: runtime.sql, store: runtime.store, js, publishes, log: logger });
  await bridge.start();
  runtime.operations.checks.push({
    name: 'nats',
    async check() {
      await nc.flush();
      return { ok: true, detail: { server: nc.getServer() } };
    },
  });
  runtime.operations.metrics.gauge(
    'shiftcover_jetstream_pending',
    'Messages each durable consumer has not been given yet, or has not acknowledged.',
    ['consumer'],
    async () =>
      Promise.all(
        handlers.map(async ({ name }) => {
          const info = await jsm.consumers.info(EVENTS_STREAM, name);
          return { labels: { consumer: name }, value: info.num_pending + info.num_ack_pending };
        }),
      ),
  );
  logger.info({ url, consumers: handlers.map((h) => h.name) }, 'events bridged to NATS JetStream');
  return {
    async stop() {
      for (const consumer of consumers) await consumer.stop();
      await bridge.stop();
      await nc.close();
    },
  };
}
