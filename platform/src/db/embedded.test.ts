import { chmod, lstat, mkdir, mkdtemp, realpath, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, socketOf } from './connect';
import { type EmbeddedDatabase, PASSWORD_FILE, startEmbeddedPostgres } from './embedded';

const isRoot = process.getuid?.() === 0;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(dataDir: string): Promise<EmbeddedDatabase> {
  const server = await startEmbeddedPostgres({ dataDir });
  cleanups.push(() => server.stop());
  return server;
}

async function answers(url: string): Promise<boolean> {
  const sql = connect(url, { max: 1 });
  try {
    const [row] = await sql<{ one: number }[]>`select 1 as one`;
    return row?.one === 1;
  } finally {
    await sql.end();
  }
}

/** The address the server sees a connection arrive on: null through a Unix socket. */
async function serverAddress(url: string): Promise<string | null> {
  const sql = connect(url, { max: 1 });
  try {
    const [row] = await sql<{ address: string | null }[]>`select host(inet_server_addr()) as address`;
    return row!.address;
  } finally {
    await sql.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('gets a random password at initdb, kept in the data directory for its owner alone; a second process finds it', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-embedded-'));
    await chmod(root, 0o755);
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const dataDir = path.join(root, 'pg');

    const server = await started(dataDir);
    const password = decodeURIComponent(new URL(server.url).password);
    expect(password).not.toBe('embedded');
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect((await stat(path.join(dataDir, PASSWORD_FILE))).mode & 0o777).toBe(0o600);
    expect(await answers(server.url)).toBe(true);

    // As the CLI does while the server runs: found through postmaster.pid, with the same password.
    const second = await startEmbeddedPostgres({ dataDir });
    expect(second.port).toBe(server.port);
    expect(await answers(second.url)).toBe(true);
  });

  it('is reached through a Unix socket in its data directory, and over loopback TCP beside it', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-embedded-'));
    await chmod(root, 0o755);
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const server = await started(path.join(root, 'pg'));
    const { tcp, socket } = socketOf(server.url);
    expect(socket).toBe(path.join(await realpath(path.join(root, 'pg')), `.s.PGSQL.${server.port}`));
    // A connection through a socket has no server address.
    expect(await serverAddress(server.url)).toBeNull();
    expect(await serverAddress(tcp)).toBe('127.0.0.1');
    // The CLI beside a running server finds the socket in postmaster.pid.
    const second = await startEmbeddedPostgres({ dataDir: path.join(root, 'pg') });
    expect(second.url).toBe(server.url);
  });

  it('stays on TCP alone where a socket cannot be made: a path too long for one, or a place that refuses one', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-embedded-'));
    await chmod(root, 0o755);
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const deep = path.join(root, 'a-folder-name-long-enough-to-leave-no-room'.repeat(2), 'pg');
    const far = await started(deep);
    expect(socketOf(far.url).socket).toBeUndefined();
    expect(await serverAddress(far.url)).toBe('127.0.0.1');
    await far.stop();

    // Something else already sits where the socket would go.
    const dataDir = path.join(root, 'pg');
    const first = await started(dataDir);
    const { port } = first;
    await first.stop();
    await mkdir(path.join(await realpath(dataDir), `.s.PGSQL.${port}`));
    const again = await startEmbeddedPostgres({ dataDir, port });
    cleanups.push(() => again.stop());
    expect(socketOf(again.url).socket).toBeUndefined();
    expect(await serverAddress(again.url)).toBe('127.0.0.1');
  });

  it('as a throwaway server trades durability for speed, unless asked to be durable as benchmarks ask', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-embedded-'));
    await chmod(root, 0o755);
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const settings = async (durable: boolean) => {
      const server = await startEmbeddedPostgres({
        dataDir: path.join(root, String(durable)),
        ephemeral: true,
        durable,
      });
      const sql = connect(server.url, { max: 1 });
      try {
        const rows = await sql<{ name: string; setting: string }[]>`
          select name, setting from pg_settings
          where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'client_connection_check_interval')
          order by name`;
        return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
      } finally {
        await sql.end();
        await server.stop();
      }
    };
    expect(await settings(false)).toEqual({
      client_connection_check_interval: '1000',
      fsync: 'off',
      full_page_writes: 'off',
      synchronous_commit: 'off',
    });
    expect(await settings(true)).toEqual({
      client_connection_check_interval: '1000',
      fsync: 'on',
      full_page_writes: 'on',
      synchronous_commit: 'on',
    });
  });

  it('still starts a data directory made before the password was random', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-embedded-'));
    await chmod(root, 0o755);
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const dataDir = path.join(root, 'pg');
    const first = await startEmbeddedPostgres({ dataDir });
    const sql = connect(first.url, { max: 1 });
    await sql`alter role postgres password 'embedded'`;
    await sql.end();
    await first.stop();
    await unlink(path.join(dataDir, PASSWORD_FILE));

    const again = await started(dataDir);
    expect(new URL(again.url).password).toBe('embedded');
    expect(await answers(again.url)).toBe(true);
  });

  // As root the server runs as the postgres user; this is the case of a private (0700) parent.
  it.skipIf(!isRoot)(
    'as root, runs with its data under a private directory the postgres user cannot enter (skipped unless root)',
    async () => {
      const parent = await mkdtemp(path.join(tmpdir(), 'shiftcover-private-'));
      expect((await stat(parent)).mode & 0o777).toBe(0o700);
      const dataDir = path.join(parent, 'data', 'postgres');
      let target: string | undefined;
      cleanups.push(async () => {
        await rm(parent, { recursive: true, force: true });
        if (target) await rm(target, { recursive: true, force: true });
      });

      const server = await started(dataDir);
      expect((await lstat(dataDir)).isSymbolicLink()).toBe(true);
      target = await realpath(dataDir);
      expect(await answers(server.url)).toBe(true);
      await server.stop();

      const again = await started(dataDir);
      expect(await answers(again.url)).toBe(true);
    },
  );
});
