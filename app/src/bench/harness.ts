import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCommandService } from '@shiftcover/command-api';
import type { Actor, Role } from '@shiftcover/domain';
import { aShift } from '@shiftcover/domain/testing';
import { createLogger, hashPassword, loadConfig } from '@shiftcover/platform';
import { startEmbeddedPostgres } from '@shiftcover/platform/embedded';
import { openRuntime, type Runtime } from '../runtime';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const BENCH_PASSWORD = 'bench-pass-2026';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

/** A throw-away PostgreSQL (or BENCH_DATABASE_URL) with the product's schema. */
export async function benchDatabase(): Promise<{
  url: string;
  runtime: Runtime;
  /** The embedded server's postmaster, whose backends are its children; none for BENCH_DATABASE_URL. */
  postmasterPid(): number | undefined;
  stop(): Promise<void>;
}> {
  let url = process.env.BENCH_DATABASE_URL;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let root: string | undefined;
  let runtime: Runtime;
  try {
    if (!url) {
      root = await mkdtemp(path.join(tmpdir(), 'shiftcover-bench-'));
      // As root the server runs as the `postgres` user, which must be able to enter the folder.
      await chmod(root, 0o755);
      embedded = await startEmbeddedPostgres({
        dataDir: path.join(root, 'pg'),
        ephemeral: true,
        durable: true,
      });
      url = embedded.url;
    }
    runtime = await openRuntime(
      loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv),
      createLogger('silent'),
    );
  } catch (error) {
    // Nothing of a database that could not be opened is left behind.
    await embedded?.stop();
    if (root) await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    runtime,
    postmasterPid() {
      if (!root) return undefined;
      try {
        // Its first line is the postmaster's process id.
        return (
          Number(readFileSync(path.join(root, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined
        );
      } catch {
        return undefined;
      }
    },
    async stop() {
      await runtime.close();
      await embedded?.stop();
      if (root) await rm(root, { recursive: true, force: true });
    },
  };
}

/** A script of this repository in its own Node process, answering HTTP on `port`. */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  port: number,
): Promise<{ baseUrl: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Should the bench end on an error before its cleanup, the server does not outlive it.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    const up = await fetch(`${baseUrl}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (i > 300) throw new Error(`${script} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const system: Actor = { kind: 'system', name: 'bench' };

/** Accounts made through the real command path; all share one password. */
export async function createAccounts(runtime: Runtime, role: Role, count: number, prefix: string) {
  const service = createCommandService(runtime.handler, runtime.vault);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const ids: { userId: string; username: string }[] = [];
  for (let i = 0; i < count; i++) {
    const userId = randomUUID();
    const username = `${prefix}-${i}`;
    await service.users.register(
      {
        userId,
        role,
        superAdmin: role === 'admin',
        emailNotificationsEnabled: false,
        personal: {
          username,
          email: `${username}@bench.example`,
          firstName: prefix,
          lastName: String(i),
          passwordHash,
        },
      },
      { actor: system, now: new Date() },
      { commandId: randomUUID() },
    );
    ids.push({ userId, username });
  }
  return ids;
}

export async function signIn(baseUrl: string, username: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in of ${username} failed: ${response.status}`);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/**
 * `count` open shifts, one every other day from 2031 on, posted through the command service: a
 * person who claims a run of them keeps to the working-time rules (docs/product.md §10).
 */
export async function postShifts(runtime: Runtime, count: number, firstDay = 0): Promise<string[]> {
  const service = createCommandService(runtime.handler, runtime.vault);
  const admin: Actor = { kind: 'user', userId: randomUUID(), role: 'admin', superAdmin: true };
  const ids: string[] = [];
  const base = Date.UTC(2031, 0, 1);
  for (let i = 0; i < count; i += 32) {
    await Promise.all(
      Array.from({ length: Math.min(32, count - i) }, async (_, k) => {
        const shiftId = randomUUID();
        const date = new Date(base + 2 * (firstDay + i + k) * 86_400_000).toISOString().slice(0, 10);
        await service.shift(
          {
            type: 'PostShift',
            data: aShift({
              shiftId,
              location: ['Maple House', 'Oak Lodge', 'Cedar Grove', 'Day Program'][(i + k) % 4]!,
              date,
            }),
          },
          { actor: admin, now: new Date() },
          { commandId: randomUUID() },
        );
        ids.push(shiftId);
      }),
    );
  }
  return ids;
}
