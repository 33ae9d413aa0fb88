import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { connect as tcpConnect } from 'node:net';
import path from 'node:path';
import { freePort } from '../net';

export interface NatsServer {
  url: string;
  port: number;
  /** Stops the server and waits until it has exited. */
  stop(): Promise<void>;
}

export interface NatsServerOptions {
  /** JetStream's storage; a server an earlier run left on it is stopped first (see `stopStale`). */
  storeDir: string;
  port?: number;
  /** The `nats-server` executable: `NATS_SERVER_BIN`, else the PATH, else Debian's `/usr/sbin`. */
  binary?: string;
}

const PID_FILE = 'nats-server.pid';

// nats-server runs under a small shell that holds a pipe from this process on its standard input.
// When this process ends, however it ends (SIGKILL included), the pipe closes and the shell stops the
// server; when the server ends on its own, the shell exits with its code.
const WATCHDOG = `exec 3<&0
"$@" </dev/null &
server=$!
{ read -r _ <&3; kill -TERM "$server" 2>/dev/null; } &
watcher=$!
wait "$server"
code=$?
kill "$watcher" 2>/dev/null
exit "$code"`;

/** The `nats-server` executable to run, or undefined when there is none. */
export function natsServerBinary(given = process.env.NATS_SERVER_BIN): string | undefined {
  if (given) return existsSync(given) ? given : undefined;
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs.map((dir) => path.join(dir, 'nats-server')).find((file) => existsSync(file));
}

/**
 * Starts `nats-server` with JetStream on a loopback port, its storage under `storeDir`, and waits
 * until it listens. The server never outlives this process.
 */
export async function launchNatsServer(options: NatsServerOptions): Promise<NatsServer> {
  const binary = options.binary ?? natsServerBinary();
  if (!binary) throw new Error(`No nats-server found (NATS_SERVER_BIN=${process.env.NATS_SERVER_BIN ?? ''})`);
  const storeDir = path.resolve(options.storeDir);
  await mkdir(storeDir, { recursive: true });
  await stopStale(storeDir);
  const port = options.port ?? (await freePort());
  const args = [
    '-js',
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    '-sd',
    storeDir,
    '-P',
    path.join(storeDir, PID_FILE),
  ];
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'nats-server', binary, ...args], {
    stdio: ['pipe', 'ignore', 'ignore'],
    // Its own process group: Ctrl-C reaches this process, which stops the server in order.
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`Cannot start ${binary}: ${error.message}`)));
    void exited.then((code) => reject(new Error(`${binary} exited with code ${code}`)));
  });
  try {
    await Promise.race([waitForPort(port, 10_000), failed]);
  } catch (error) {
    await terminate(child, exited);
    throw error;
  }
  failed.catch(() => {});
  return { url: `nats://127.0.0.1:${port}`, port, stop: () => terminate(child, exited) };
}

async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.stdin?.end();
  await exited;
}

/**
 * A server an earlier run left on this storage holds the store's lock. One whose watchdog is gone
 * (killed with it) is stopped, after checking from its command line that it is that server; one
 * whose watchdog still runs belongs to a live process, and is left alone.
 */
async function stopStale(storeDir: string): Promise<void> {
  const pid = Number((await readFile(path.join(storeDir, PID_FILE), 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return;
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('nats-server') || !command.split('\0').includes(storeDir)) return;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const parent = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  const parentCommand = await readFile(`/proc/${parent}/cmdline`, 'utf8').catch(() => '');
  if (parentCommand.includes(WATCHDOG)) {
    throw new Error(`nats-server ${pid} of another running process already uses ${storeDir}`);
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && existsSync(`/proc/${pid}`)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
