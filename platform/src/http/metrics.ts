import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

type Labels = Record<string, string>;

/**
 * The metrics of one process, served at `/metrics` in Prometheus's text format: the Node.js
 * runtime's own, HTTP request durations, commands by outcome, and gauges that each part of the
 * product reads at scrape time.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request durations by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly commands = new Counter({
    name: 'shiftcover_commands_total',
    help: 'Commands by type and outcome: accepted, duplicate (already handled), rejected (with its code), failed, retried after a concurrent change, exhausted.',
    labelNames: ['type', 'outcome', 'code'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts what became of one command (or one attempt at it, for `retried`). */
  countCommand = (report: { type: string; outcome: string; code?: string }): void => {
    this.commands.inc({ type: report.type, outcome: report.outcome, code: report.code ?? '' });
  };

  /**
   * A gauge whose values `read` finds at each scrape. A read that fails leaves the gauge empty
   * for that scrape rather than failing the whole page.
   */
  gauge(
    name: string,
    help: string,
    labelNames: readonly string[],
    read: () => Promise<Array<{ labels: Labels; value: number }>>,
  ): void {
    // Registered again by a part started again in the same process: the latest reading wins.
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        const values = await read().catch(() => []);
        for (const { labels, value } of values) this.set(labels, value);
      },
    });
  }

  /** Times every request of `app` and serves the page at `/metrics`. */
  routes = async (app: FastifyInstance): Promise<void> => {
    app.addHook('onResponse', async (request, reply) => {
      this.requests.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.type(this.registry.contentType).send(await this.registry.metrics()),
    );
  };
}
