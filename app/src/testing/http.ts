import { randomUUID } from 'node:crypto';
import { createCommandService } from '@shiftcover/command-api';
import type { Role } from '@shiftcover/domain';
import { easternTime, easternToday } from '@shiftcover/domain';
import { createLogger, hashPassword, hashPasswordsCheaplyInTests, loadConfig } from '@shiftcover/platform';
import { createTestDatabase } from '@shiftcover/platform/testing';
import { planNextBatch } from '@shiftcover/processes';
import { Positions } from '@shiftcover/read-api';
import { aPerson } from '@shiftcover/testing';
import type { FastifyInstance } from 'fastify';
import { openRuntime, type Runtime } from '../runtime';
import { buildServer, type ServerOptions } from '../server';

export interface Reply {
  status: number;
  body: Record<string, unknown> & { message?: string; position?: string };
  headers: Headers;
}

/** Longer than any request of a test takes on two busy cores, yet well inside a test's own limit. */
const REQUEST_TIMEOUT_MS = 60_000;

/** A signed-in (or anonymous) browser: keeps its session cookie between calls. */
export class Client {
  cookie = '';

  /** `latest` is shared by a test's clients: reads wait for every write the test has made. */
  constructor(
    readonly baseUrl: string,
    private readonly latest: { position: bigint } = { position: 0n },
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      // A request the server never answers fails its test, naming it, instead of stopping it.
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(method === 'GET' && this.latest.position > 0n
          ? { 'x-min-position': this.latest.position.toString() }
          : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    }).catch((error: unknown) => {
      if ((error as Error).name !== 'TimeoutError') throw error;
      throw new Error(`${method} ${path} had no answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!.endsWith('=') ? '' : setCookie.split(';')[0]!;
    const text = await response.text();
    let parsed: Reply['body'] = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { raw: text };
    }
    if (typeof parsed.position === 'string' && BigInt(parsed.position) > this.latest.position) {
      this.latest.position = BigInt(parsed.position);
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  get = (path: string) => this.call('GET', path);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call('POST', path, body, headers);
  put = (path: string, body?: unknown) => this.call('PUT', path, body);
  patch = (path: string, body?: unknown) => this.call('PATCH', path, body);
  delete = (path: string) => this.call('DELETE', path);
}

export interface TestServer {
  app: FastifyInstance;
  runtime: Runtime;
  baseUrl: string;
  anonymous(): Client;
  /** Creates an account through the command path and signs it in. */
  signedIn(
    role: Role,
    options?: { superAdmin?: boolean; username?: string },
  ): Promise<Client & { userId: string }>;
  /** Plans into the outbox the mail of everything past the e-mail checkpoint, as with no SMTP server. */
  planMail(): Promise<void>;
  close(): Promise<void>;
}

export const PASSWORD = 'correct-horse';

/**
 * The scrypt cost of the passwords set while an in-process test server runs (N=2^10, about 1 ms):
 * the production cost would spend most of the suite's time signing in. Servers started as their own
 * process, as `npm start` runs them, hash at the production cost.
 */
export const TEST_PASSWORD_COST = 2 ** 10;

/**
 * The whole server in-process, on a fresh test database or, given `databaseUrl`, on that one;
 * `env` adds settings of the configuration.
 */
export async function startTestServer({
  databaseUrl,
  env = {},
  ...options
}: ServerOptions & { databaseUrl?: string; env?: Record<string, string> } = {}): Promise<TestServer> {
  hashPasswordsCheaplyInTests(TEST_PASSWORD_COST);
  const db = databaseUrl ? undefined : await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: databaseUrl ?? db!.url,
    LOG_LEVEL: 'silent',
    ...env,
  } as NodeJS.ProcessEnv);
  const logger = createLogger('silent');
  const runtime = await openRuntime(config, logger);
  const app = await buildServer(runtime, config, logger, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const service = createCommandService(runtime.handler, runtime.vault);
  const passwordHash = await hashPassword(PASSWORD);
  const latest = { position: 0n };

  return {
    app,
    runtime,
    baseUrl,
    anonymous: () => new Client(baseUrl, latest),
    async signedIn(role, { superAdmin = false, username } = {}) {
      const userId = randomUUID();
      const person = aPerson({
        userId,
        name: username ?? `${role}-${userId.slice(0, 8)}`,
        role,
        superAdmin,
        personal: { firstName: 'Test', lastName: role, passwordHash },
      });
      const name = person.personal.username;
      await service.users.register(
        person,
        { actor: { kind: 'system', name: 'test' }, now: new Date() },
        { commandId: randomUUID() },
      );
      const client = Object.assign(new Client(baseUrl, latest), { userId });
      const login = await client.post('/api/auth/login', { username: name, password: PASSWORD });
      if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      return client;
    },
    async planMail() {
      const { sql, store, vault } = runtime;
      const positions = new Positions(sql);
      const deps = {
        sql,
        store,
        vault,
        publicUrl: 'https://shifts.example.org',
        smtpConfigured: false,
        readModelsAt: (p: bigint, models: readonly string[]) => positions.waitFor(p, models),
      };
      try {
        while ((await planNextBatch(deps)) > 0) {}
      } finally {
        await positions.close();
      }
    },
    async close() {
      await app.close();
      await runtime.close();
      await db?.drop();
    },
  };
}

/** The shift form's date and times for a shift of `hours` starting at `start`, in Eastern wall-clock terms. */
export function easternSlot(start: Date, hours: number) {
  const end = new Date(start.getTime() + hours * 3_600_000);
  return { date: easternToday(start), startTime: easternTime(start), endTime: easternTime(end) };
}
