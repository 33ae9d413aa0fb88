import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Processes a test starts run in a process group of their own (`detached`), so stopping the group
 * stops whatever they started in turn (a tsx compiler, a PostgreSQL, a browser). Each group is
 * recorded in the run's registry (`SHIFTCOVER_TEST_PROCESSES`, set by the global setup) until it is
 * stopped; the global teardown kills the groups still recorded, which catches a test that timed out
 * or a worker that died before its cleanup ran.
 */
export const REGISTRY_ENV = 'SHIFTCOVER_TEST_PROCESSES';

/** `spawn` in a process group of its own, recorded in the run's registry while it lives. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const pid = child.pid;
  if (pid !== undefined) {
    record(pid);
    child.once('exit', () => forget(pid));
  }
  return child;
}

/**
 * Stops the child's whole group: `signal` first, SIGKILL for whatever is left after `graceMs`.
 * Resolves once the child itself has exited.
 */
export async function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000) {
  const pid = child.pid;
  if (pid === undefined) return;
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(pid, signal);
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([exited, grace]);
  clearTimeout(timer);
  // The leader may be gone while members of its group are still shutting down.
  signalGroup(pid, 'SIGKILL');
  await exited;
  forget(pid);
}

/** The command lines of the live (not zombie) processes of group `pgid`, read from /proc (Linux). */
export function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const entry of safeList('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) !== pgid || state === 'Z') continue;
      members.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      // The process ended while it was being read.
    }
  }
  return members;
}

/** Kills every group still recorded in `registry`; returns how many were alive. */
export function killRecordedGroups(registry: string): number {
  let killed = 0;
  for (const name of safeList(registry)) {
    const pid = Number(name);
    const started = readFileSync(path.join(registry, name), 'utf8');
    // A recorded pid that now belongs to another process is left alone.
    if (startTime(pid) === started && signalGroup(pid, 'SIGKILL')) killed += 1;
    rmSync(path.join(registry, name), { force: true });
  }
  return killed;
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function record(pid: number): void {
  const registry = process.env[REGISTRY_ENV];
  if (!registry) return;
  mkdirSync(registry, { recursive: true });
  writeFileSync(path.join(registry, String(pid)), startTime(pid) ?? '');
}

function forget(pid: number): void {
  const registry = process.env[REGISTRY_ENV];
  if (registry) rmSync(path.join(registry, String(pid)), { force: true });
}

/** The process's start time in clock ticks since boot (Linux), which tells a reused pid apart. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
