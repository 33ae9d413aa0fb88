import { createLogger, loadConfig } from '@shiftcover/platform';
import { startNatsServer } from '@shiftcover/platform/testing';
import { ProjectionRunner, projections } from '@shiftcover/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForOperations, mailGauges } from './operations';
import { startProcesses } from './processes';
import { type Client, easternSlot, startTestServer, type TestServer } from './testing/http';

/** What `/readyz` answers (and the `status` `/healthz` answers). */
interface Readiness {
  status: string;
  checks: Record<
    string,
    { ok: boolean; detail?: { maxLag?: number; lag?: Record<string, number> } & Record<string, unknown> }
  >;
}

const get = async (url: string) => {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Readiness };
};

/** Resolves with `work`, or fails once `ms` have passed without it. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe('an operator probing and scraping the all-in-one server', () => {
  let server: TestServer;
  let admin: Client;

  beforeAll(async () => {
    server = await startTestServer({ web: false });
    admin = await server.signedIn('developer');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is alive at /healthz and ready at /readyz, each dependency with its detail', async () => {
    const health = await get(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await get(`${server.baseUrl}/readyz`);
    expect(ready.status, ready.text).toBe(200);
    const body = ready.json();
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks)).toEqual(['postgres', 'eventstore', 'parked-events', 'projection-lag']);
    expect(body.checks['projection-lag']!.detail!.lag).toHaveProperty('shifts');
  });

  it('shows events set aside per consumer at /readyz and /metrics, and stays ready', async () => {
    await server.runtime.sql`
      insert into parked_events (consumer, event_id, position, stream_id, event_type, error)
      values ('users', 'a-parked-event', 1, 'user-x', 'UserUpdated', 'invalid byte sequence')`;
    try {
      const ready = await get(`${server.baseUrl}/readyz`);
      expect(ready.status, ready.text).toBe(200);
      expect(ready.json().checks['parked-events']).toEqual({ ok: true, detail: { parked: { users: 1 } } });
      const metrics = await get(`${server.baseUrl}/metrics`);
      expect(metrics.text).toContain('shiftcover_parked_events{consumer="users"} 1');
    } finally {
      await server.runtime.sql`delete from parked_events where event_id = 'a-parked-event'`;
    }
  });

  it('counts requests by route and status, and commands by type and outcome', async () => {
    mailGauges(server.runtime.operations.metrics, server.runtime.sql);
    const staff = await server.signedIn('staff');
    const colleague = await server.signedIn('staff');
    await admin.post('/api/residences', { name: 'Maple House' });
    const start = new Date(Date.now() + 3 * 86_400_000);
    const shift = await admin.post('/api/shifts', {
      location: 'Maple House',
      type: 'AM',
      ...easternSlot(start, 8),
    });
    expect(shift.status, JSON.stringify(shift.body)).toBe(201);
    expect((await staff.post(`/api/shifts/${shift.body.id}/claim`)).status).toBe(200);
    expect((await colleague.post(`/api/shifts/${shift.body.id}/claim`)).status).toBeGreaterThanOrEqual(400);

    const metrics = await get(`${server.baseUrl}/metrics`);
    expect(metrics.status).toBe(200);
    const page = metrics.text;
    expect(page).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/api\/shifts\/:id\/claim",status_code="200"\} 1$/m,
    );
    expect(page).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/api\/shifts",status_code="201"\} 1$/m,
    );
    expect(page).toMatch(/^shiftcover_commands_total\{type="PostShift",outcome="accepted",code=""\} 1$/m);
    expect(page).toMatch(/^shiftcover_commands_total\{type="ClaimShift",outcome="accepted",code=""\} 1$/m);
    expect(page).toMatch(
      /^shiftcover_commands_total\{type="ClaimShift",outcome="rejected",code="not_claimable"\} 1$/m,
    );
    expect(page).toMatch(/^shiftcover_projection_position\{projection="shifts"\} \d+$/m);
    expect(page).toMatch(/^shiftcover_projection_lag_events\{projection="shifts"\} \d+$/m);
    expect(page).toMatch(/^shiftcover_mail_outbox_depth \d+$/m);
    // The claims above remembered the shift's stream and the claimant's schedule, at least.
    const remembered = (of: string) =>
      Number(page.match(new RegExp(`^shiftcover_remembered_streams\\{of="${of}"\\} (\\d+)$`, 'm'))?.[1]);
    expect(remembered('streams')).toBeGreaterThanOrEqual(2);
    expect(remembered('events')).toBeGreaterThanOrEqual(remembered('streams'));
    expect(page).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('closes promptly while a live-update stream is open', async () => {
    const response = await fetch(`${server.baseUrl}/api/live`, { headers: { cookie: admin.cookie } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    await within(5_000, 'closing the server', server.app.close());
    // The stream was ended by the server, not left hanging.
    for (;;)
      if (
        (
          await within(
            5_000,
            'the stream ending',
            reader.read().catch(() => ({ done: true })),
          )
        ).done
      )
        break;
  });
});

describe('readiness of the read side', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ web: false, projector: false, env: { READY_MAX_LAG: '0' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is not ready while the read models lag behind the log, and ready once they catch up', async () => {
    await server.signedIn('admin');
    const lagging = await get(`${server.baseUrl}/readyz`);
    expect(lagging.status, lagging.text).toBe(503);
    const body = lagging.json();
    expect(body.status).toBe('not ready');
    expect(body.checks.postgres!.ok).toBe(true);
    expect(body.checks['projection-lag']).toMatchObject({ ok: false, detail: { maxLag: 0 } });
    expect(body.checks['projection-lag']!.detail!.lag!.users).toBeGreaterThan(0);

    const { runtime } = server;
    const runner = new ProjectionRunner(
      { sql: runtime.sql, store: runtime.store, vault: runtime.vault },
      projections,
    );
    await runner.start();
    try {
      let ready = await get(`${server.baseUrl}/readyz`);
      for (let tries = 0; ready.status !== 200 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ready = await get(`${server.baseUrl}/readyz`);
      }
      expect(ready.status, ready.text).toBe(200);
    } finally {
      await runner.stop();
    }
  });

  it('is not ready, and says why, once PostgreSQL cannot be reached; still alive', async () => {
    await server.runtime.sql.end({ timeout: 1 });
    const ready = await get(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.json().checks.postgres).toMatchObject({ ok: false, detail: expect.any(String) });
    expect((await get(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});

describe('the projector and the processes, which serve no API', () => {
  it('answer /healthz, /readyz and /metrics on their own listener', async () => {
    const server = await startTestServer({ web: false, projector: false });
    const http = await listenForOperations(server.runtime.operations, 0, createLogger('silent'));
    try {
      const address = http.server.address();
      const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      expect((await get(`${base}/healthz`)).status).toBe(200);
      expect((await get(`${base}/readyz`)).json().checks.postgres!.ok).toBe(true);
      expect((await get(`${base}/metrics`)).text).toContain('# TYPE shiftcover_commands_total counter');
    } finally {
      await http.close();
      await server.close();
    }
  });
});

describe('the processes on NATS JetStream', () => {
  it('are ready only with NATS answering, and report what each durable consumer has pending', async () => {
    const nats = await startNatsServer();
    const server = await startTestServer({ web: false });
    const logger = createLogger('silent');
    const config = loadConfig({
      DATABASE_URL: server.runtime.databaseUrl,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
    } as NodeJS.ProcessEnv);
    const processes = await startProcesses(server.runtime, config, logger);
    try {
      const ready = await get(`${server.baseUrl}/readyz`);
      expect(ready.status, ready.text).toBe(200);
      expect(ready.json().checks.nats!.ok).toBe(true);
      expect((await get(`${server.baseUrl}/metrics`)).text).toMatch(
        /^shiftcover_jetstream_pending\{consumer="[\w-]+"\} \d+$/m,
      );
      await nats.stop();
      const lost = await get(`${server.baseUrl}/readyz`);
      expect(lost.status).toBe(503);
      expect(lost.json().checks.nats!.ok).toBe(false);
    } finally {
      await processes.stop();
      await server.close();
      await nats.stop();
    }
  });
});
