import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuOfTrees, cpuPer } from './cpu';

/** Node code that uses `ms` of CPU time however busy the machine is. */
const burn = (ms: number) => `while (process.cpuUsage().user < ${ms * 1000}) {}`;

/** Whether any process of the process group `group` is still there, reaped or not. */
function groupLives(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills the process group `group` and waits until its processes have ended and been reaped (the
 * grandchild by whichever process adopts it), so that no later reading of this process's tree sees
 * them leave it.
 */
async function stopGroup(group: number): Promise<void> {
  process.kill(-group, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (groupLives(group) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.runIf(process.platform === 'linux')('CPU time of a process tree', () => {
  it('counts a process with its children and grandchildren while they run', async () => {
    // A child and a grandchild that each use 400 ms and then wait, in a process group of their own.
    const grandchild = `${burn(400)} setTimeout(() => {}, 60000)`;
    const child = spawn(
      process.execPath,
      [
        '-e',
        `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' }); ${grandchild}`,
      ],
      { detached: true, stdio: 'ignore' },
    );
    try {
      const deadline = Date.now() + 20_000;
      let used = 0;
      while (used < 800 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        used = cpuOfTrees({ child: child.pid })!.child!;
      }
      expect(used).toBeGreaterThanOrEqual(800);
    } finally {
      await stopGroup(child.pid!);
    }
  });

  it('counts a child that ended through its parent, which waited for it', async () => {
    const before = cpuOfTrees({ me: process.pid })!.me!;
    const child = spawn(process.execPath, ['-e', burn(300)], { stdio: 'ignore' });
    await once(child, 'exit');
    expect(cpuOfTrees({ me: process.pid })!.me! - before).toBeGreaterThanOrEqual(300);
  });

  it('gives milliseconds per unit of work, and nothing for a process that is not there', () => {
    expect(cpuPer({ server: 1000, postgres: 500 }, { server: 3000, postgres: 900 }, 1000)).toEqual({
      server: 2,
      postgres: 0.4,
    });
    expect(cpuOfTrees({ gone: 2 ** 30 })).toEqual({});
    expect(cpuPer(undefined, {}, 10)).toBeUndefined();
  });
});
