import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './build';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let outdir: string;
let db: TestDatabase;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  // Beside app/src, as app/dist is: packages resolve from app/node_modules, then the root's.
  outdir = mkdtempSync(path.join(ROOT, 'app', '.built-'));
  await buildServer(outdir);
  db = await createTestDatabase();
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all([...children].map((child) => once(child, 'exit')));
  await db?.drop();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** What each program logs once it has started, signal handlers included. */
const STARTED: Record<string, string> = {
  main: 'Shift Coverage is running at',
  'read-api': 'read-api listening on port',
  'command-api': 'command-api listening on port',
  projections: 'projector running',
  processes: 'processes running',
};

/** Runs a built program with plain `node`, as the image does, until it has started and answers on `port`. */
async function start(program: string, env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, [path.join(outdir, `${program}.js`)], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'info',
      NATS_URL: '',
      EVENTSTORE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`${program} exited: ${output}`);
    const answered = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered && output.includes(STARTED[program]!)) break;
    if (tries > 300) throw new Error(`${program} never answered: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    /** SIGTERM, as `docker stop` sends it: the program closes and exits with code 0. */
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code, output).toBe(0);
    },
  };
}

describe('the server programs compiled to JavaScript (npm run build:server)', () => {
  for (const program of ['main', 'read-api', 'command-api']) {
    it(`${program} runs with plain node, is ready, documents every route, and stops on SIGTERM`, async () => {
      const port = await freePort();
      const service = await start(program, { PORT: String(port) }, port);
      const ready = await fetch(`${service.base}/readyz`);
      expect(ready.status, await ready.clone().text()).toBe(200);
      const document = (await (await fetch(`${service.base}/api/docs/json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/api/shifts',
          '/api/shifts/{id}/claim',
          '/api/auth/login',
          '/api/audit-logs',
        ]),
      );
      await service.stop();
    });
  }

  it('carries date-fns inside, so no program loads its 250 modules one by one at start', () => {
    const code = readdirSync(outdir).filter((file) => file.endsWith('.js'));
    expect(code).toContain('main.js');
    for (const file of code) {
      expect(readFileSync(path.join(outdir, file), 'utf8'), file).not.toMatch(/from\s*["']date-fns/);
    }
  });

  for (const program of ['projections', 'processes']) {
    it(`${program} answers on HEALTH_PORT and stops on SIGTERM`, async () => {
      const port = await freePort();
      const service = await start(program, { HEALTH_PORT: String(port) }, port);
      expect((await fetch(`${service.base}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${service.base}/metrics`)).text()).toContain('shiftcover_commands_total');
      await service.stop();
    });
  }
});
