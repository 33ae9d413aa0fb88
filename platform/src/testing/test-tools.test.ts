import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// scripts/ensure-test-tools.mjs, which `npm test` runs first (`pretest`).
const SCRIPT = fileURLToPath(new URL('../../../scripts/ensure-test-tools.mjs', import.meta.url));
const isRoot = process.getuid?.() === 0;
const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find(existsSync);

/** A Node that `nobody` may run: this one may sit in root's home (a Node fetched by npx). */
function nodeForNobody(): string | undefined {
  return [process.execPath, '/usr/bin/node', '/usr/local/bin/node'].find((node) => {
    try {
      execFileSync(runuser!, ['-u', 'nobody', '--', node, '--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

/** Runs the script as this user, or as `nobody` (root only); never throws for an exit code. */
function ensure(env: Record<string, string>, args: string[] = [], nobodyNode?: string) {
  const [command, commandArgs] = nobodyNode
    ? [runuser!, ['-u', 'nobody', '--', nobodyNode, copy, ...args]]
    : [process.execPath, [SCRIPT, ...args]];
  const started = Date.now();
  return new Promise<{ code: number; stdout: string; stderr: string; ms: number }>((resolve) => {
    execFile(command, commandArgs, { env: { ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

let scratch = '';
let copy = '';
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'shiftcover-tools-'));
  await chmod(scratch, 0o755);
  // A PATH with apt-get and nothing else: nats-server is not on it.
  await symlink('/usr/bin/apt-get', path.join(scratch, 'apt-get'));
  // A copy `nobody` can read wherever the repository is.
  copy = path.join(scratch, 'ensure-test-tools.mjs');
  await copyFile(SCRIPT, copy);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the tools npm test needs', () => {
  it('with a Chromium and a nats-server given, has nothing to install', async () => {
    const run = await ensure(
      { PATH: scratch, CHROMIUM_PATH: process.execPath, NATS_SERVER_BIN: process.execPath },
      ['--dry-run'],
    );
    expect(run).toMatchObject({ code: 0, stdout: 'nothing to install\n', stderr: '' });
  });

  it.skipIf(!isRoot || !existsSync('/usr/bin/apt-get'))(
    'as root with apt, installs the Debian package of what is missing (skipped unless root with apt)',
    async () => {
      const run = await ensure({ PATH: scratch, CHROMIUM_PATH: process.execPath }, ['--dry-run']);
      expect(run).toMatchObject({ code: 0, stdout: 'would install: nats-server\n' });
    },
  );

  it.skipIf(isRoot && !runuser)(
    'as any other user, stops at once with one line saying what to install or set',
    async ({ skip }) => {
      const node = isRoot ? nodeForNobody() : undefined;
      if (isRoot && !node) skip('no Node here that the nobody user may run');
      const run = await ensure({ PATH: scratch, CHROMIUM_PATH: '/nonexistent/chromium' }, [], node);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('CHROMIUM_PATH=/nonexistent/chromium is not an executable');
      expect(run.stderr).toContain('nats-server not found: install it (apt-get install nats-server)');
      expect(run.stderr).toContain('TEST_NATS_URL');
      expect(run.ms).toBeLessThan(10_000);
    },
  );
});
