import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { launchNatsServer, natsServerBinary } from './server';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function storeDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'shiftcover-nats-launch-'));
  dirs.push(dir);
  return dir;
}

const serverPid = async (dir: string) =>
  Number((await readFile(path.join(dir, 'nats-server.pid'), 'utf8')).trim());
/** Running: a zombie waiting for its parent to reap it has ended. */
const alive = (pid: number) => {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the nats-server launcher', () => {
  it('finds no server when NATS_SERVER_BIN names a missing file', () => {
    expect(natsServerBinary('/nowhere/nats-server')).toBeUndefined();
    expect(natsServerBinary()).toBeDefined();
  });

  it('stops the server when stopped, and a server never outlives a launcher killed with SIGKILL', async () => {
    const dir = await storeDir();
    const server = await launchNatsServer({ storeDir: dir });
    const pid = await serverPid(dir);
    expect(alive(pid)).toBe(true);
    await server.stop();
    expect(alive(pid)).toBe(false);

    // A launcher in a process of its own, killed without a chance to clean up.
    const entry = fileURLToPath(new URL('./server.ts', import.meta.url));
    const script = `import { launchNatsServer } from ${JSON.stringify(entry)};
      await launchNatsServer({ storeDir: ${JSON.stringify(dir)} }); console.log('listening');`;
    const launcher = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        launcher.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
        launcher.once('exit', (code) => reject(new Error(`launcher exited with ${code}`)));
      });
      const orphan = await serverPid(dir);
      expect(alive(orphan)).toBe(true);
      launcher.kill('SIGKILL');
      await until('the orphaned server has stopped', () => !alive(orphan));
    } finally {
      launcher.kill('SIGKILL');
    }
  });

  it('leaves alone a server that a running process started on the same storage', async () => {
    const dir = await storeDir();
    const first = await launchNatsServer({ storeDir: dir });
    try {
      const pid = await serverPid(dir);
      await expect(launchNatsServer({ storeDir: dir })).rejects.toThrow(/already uses/);
      expect(alive(pid)).toBe(true);
    } finally {
      await first.stop();
    }
  });

  it('stops a server an earlier run left on the same storage before it starts', async () => {
    const dir = await storeDir();
    const binary = natsServerBinary()!;
    // A server without its watchdog, as if the watchdog too had been killed.
    const stale = spawn(
      binary,
      ['-js', '-a', '127.0.0.1', '-p', '-1', '-sd', dir, '-P', path.join(dir, 'nats-server.pid')],
      {
        stdio: 'ignore',
      },
    );
    try {
      await until(
        'the stale server wrote its pid',
        async () => (await serverPid(dir).catch(() => 0)) === stale.pid,
      );
      const server = await launchNatsServer({ storeDir: dir });
      await until('the stale server has exited', () => (stale.exitCode ?? stale.signalCode) !== null);
      const pid = await serverPid(dir);
      expect(pid).not.toBe(stale.pid);
      await server.stop();
    } finally {
      stale.kill('SIGKILL');
    }
  });
});
