import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';

export interface CheckResult {
  ok: boolean;
  detail?: unknown;
}

/** One thing a service needs before it can do its work; `/readyz` asks each of them. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<CheckResult>;
}

/** A check that neither answers nor fails within this long counts as not ready. */
const CHECK_TIMEOUT_MS = 2_000;

async function run(check: ReadinessCheck): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      check.check().catch((error: unknown) => ({
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
      })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process is alive and serving (no dependency is asked, so a restart never follows
 * an outage elsewhere). `/readyz`: every check, with its detail; `503` when any is not ready, so a
 * load balancer sends no traffic until the service can do its work.
 */
export async function healthRoutes(app: FastifyInstance, checks: readonly ReadinessCheck[]): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const results = await Promise.all(checks.map(run));
    const ready = results.every((result) => result.ok);
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: ready ? 'ready' : 'not ready',
        checks: Object.fromEntries(checks.map((check, index) => [check.name, results[index]])),
      });
  });
}

/** PostgreSQL answers a query. */
export function postgresCheck(sql: Sql): ReadinessCheck {
  return {
    name: 'postgres',
    async check() {
      await sql`select 1`;
      return { ok: true };
    },
  };
}
