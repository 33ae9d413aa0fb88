import { countEventsAfter, type EventStore } from '@shiftcover/eventstore';
import { healthRoutes, type Logger, Metrics, postgresCheck, type ReadinessCheck } from '@shiftcover/platform';
import { parkedEventCounts, projections, readCheckpoints } from '@shiftcover/projections';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Sql } from 'postgres';

/**
 * What an operator sees of one process: its metrics and the checks `/readyz` runs. Each part of
 * the product adds its own when it starts (the read side its projection lag, the processes their
 * JetStream consumers), so the list grows with what the process runs.
 */
export class Operations {
  readonly metrics = new Metrics();
  readonly checks: ReadinessCheck[] = [];

  /** `/healthz`, `/readyz` and `/metrics` on `app`; its requests are timed from here on. */
  async routes(app: FastifyInstance): Promise<void> {
    await this.metrics.routes(app);
    await healthRoutes(app, this.checks);
  }
}

/** The stores every process needs: PostgreSQL and the event store. */
export function storeChecks(sql: Sql, store: EventStore): ReadinessCheck[] {
  return [
    postgresCheck(sql),
    {
      name: 'eventstore',
      async check() {
        return { ok: true, detail: { head: (await store.headPosition()).toString() } };
      },
    },
  ];
}

/**
 * Events a read model or process set aside (docs/operations.md §6), per consumer: shown by
 * `/readyz` and `/metrics`. They do not make a process unready: the rest of the log goes on being
 * applied, and an operator retries or skips them.
 */
export function parkedEventsVisible(operations: Operations, sql: Sql): void {
  operations.checks.push({
    name: 'parked-events',
    async check() {
      return { ok: true, detail: { parked: await parkedEventCounts(sql) } };
    },
  });
  operations.metrics.gauge(
    'shiftcover_parked_events',
    'Events a read model or process could not apply and set aside, per consumer.',
    ['consumer'],
    async () =>
      Object.entries(await parkedEventCounts(sql)).map(([consumer, value]) => ({
        labels: { consumer },
        value,
      })),
  );
}

/** A read model further behind than this many events shows this many in the lag gauge. */
const COUNTED_LAG = 100_000;

/** Each projection's checkpoint and how many events of the log it has still to apply, up to `atMost`. */
async function projectionLags(sql: Sql, atMost: number) {
  const checkpoints = await readCheckpoints(sql);
  return Promise.all(
    projections.map(async ({ name }) => {
      const position = checkpoints.find((checkpoint) => checkpoint.name === name)?.position ?? 0n;
      return { name, position, lag: await countEventsAfter(sql, position, atMost) };
    }),
  );
}

/**
 * The read side is ready while every read model is within `maxLag` events of the log: further
 * behind, reads that wait for a recent write would time out.
 */
export function projectionLagCheck(sql: Sql, maxLag: number): ReadinessCheck {
  return {
    name: 'projection-lag',
    async check() {
      // One more than allowed is enough to tell, and keeps the check cheap however far behind.
      const lags = await projectionLags(sql, maxLag + 1);
      return {
        ok: lags.every(({ lag }) => lag <= maxLag),
        detail: { maxLag, lag: Object.fromEntries(lags.map(({ name, lag }) => [name, lag])) },
      };
    },
  };
}

/** Position and lag per read model, read at each scrape. */
export function projectionGauges(metrics: Metrics, sql: Sql): void {
  const lags = () => projectionLags(sql, COUNTED_LAG);
  metrics.gauge(
    'shiftcover_projection_position',
    'Global log position each read model has applied.',
    ['projection'],
    async () =>
      (await lags()).map(({ name, position }) => ({ labels: { projection: name }, value: Number(position) })),
  );
  metrics.gauge(
    'shiftcover_projection_lag_events',
    `Events each read model has still to apply, counted up to ${COUNTED_LAG}.`,
    ['projection'],
    async () => (await lags()).map(({ name, lag }) => ({ labels: { projection: name }, value: lag })),
  );
}

/** The mail outbox: deliveries not yet sent, being retried, and given up on. */
export function mailGauges(metrics: Metrics, sql: Sql): void {
  const counts = async () => {
    const [row] = await sql<{ waiting: number; retrying: number; failed: number }[]>`
      select count(*) filter (where status in ('queued', 'outbox'))::int as waiting,
             count(*) filter (where status = 'queued' and last_error is not null)::int as retrying,
             count(*) filter (where status = 'failed')::int as failed
      from email_deliveries`;
    return row!;
  };
  metrics.gauge(
    'shiftcover_mail_outbox_depth',
    'E-mail deliveries not sent yet (queued for SMTP, or kept in the outbox without SMTP).',
    [],
    async () => [{ labels: {}, value: (await counts()).waiting }],
  );
  metrics.gauge(
    'shiftcover_mail_retrying',
    'Queued e-mail deliveries whose last attempt failed and that will be tried again.',
    [],
    async () => [{ labels: {}, value: (await counts()).retrying }],
  );
  metrics.gauge(
    'shiftcover_mail_failed',
    'E-mail deliveries given up on after their last attempt.',
    [],
    async () => [{ labels: {}, value: (await counts()).failed }],
  );
}

/**
 * A small HTTP listener for the services that serve no API (the projector, the processes), so
 * they are probed and scraped like the others.
 */
export async function listenForOperations(
  operations: Operations,
  port: number,
  logger: Logger,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  await operations.routes(app);
  await app.listen({ port, host: '0.0.0.0' });
  return app;
}
