import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../net';

export interface TestNatsServer {
  url: string;
  /** Stops the server process (a no-op for `TEST_NATS_URL`). */
  stop(): Promise<void>;
  /** Stops and, after `outageMs`, starts it again on the same port and storage, for resume tests. */
  restart(outageMs?: number): Promise<void>;
}

/** `nats-server` with JetStream on a free loopback port, or the server at `TEST_NATS_URL`. */
export async function startNatsServer(): Promise<TestNatsServer> {
  const given = process.env.TEST_NATS_URL;
  if (given) return { url: given, stop: async () => {}, restart: async () => {} };
  const port = await freePort();
  const storeDir = await mkdtemp(path.join(tmpdir(), 'shiftcover-nats-'));
  let child = await launch(port, storeDir);
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      await terminate(child);
      await rm(storeDir, { recursive: true, force: true });
    },
    async restart(outageMs = 0) {
      await terminate(child);
      await new Promise((resolve) => setTimeout(resolve, outageMs));
      child = await launch(port, storeDir);
    },
  };
}

async function launch(port: number, storeDir: string): Promise<ChildProcess> {
  const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
  const child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    stdio: 'ignore',
  });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`Cannot start ${binary}: ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`${binary} exited with code ${code}`)));
  });
  await Promise.race([waitForPort(port, 10_000), failed]);
  return child;
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nats-server did not listen on port ${port} within ${timeoutMs} ms`);
}
