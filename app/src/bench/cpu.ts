import { readdirSync, readFileSync } from 'node:fs';

/** Linux's clock ticks per second in /proc (USER_HZ), 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

interface ProcessTimes {
  parent: number;
  /** Its own user and system time, and that of its children it has waited for, in ticks. */
  ticks: number;
}

function processTimes(): Map<number, ProcessTimes> {
  const times = new Map<number, ProcessTimes>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended while the table was read
    }
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
    times.set(Number(name), { parent: Number(fields[1]), ticks: utime! + stime! + cutime! + cstime! });
  }
  return times;
}

/**
 * The CPU time, in milliseconds, that each of `roots` and all its descendants have used so far: a
 * server with the processes it started (nats-server), PostgreSQL's postmaster with its backends.
 * Children that ended count through their parent's waited-for time. Undefined where there is no
 * /proc (not Linux).
 */
export function cpuOfTrees(roots: Record<string, number | undefined>): Record<string, number> | undefined {
  let times: Map<number, ProcessTimes>;
  try {
    times = processTimes();
  } catch {
    return undefined;
  }
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of times) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const used: Record<string, number> = {};
  for (const [name, root] of Object.entries(roots)) {
    if (root === undefined || !times.has(root)) continue;
    let ticks = 0;
    const pending = [root];
    while (pending.length > 0) {
      const pid = pending.pop()!;
      ticks += times.get(pid)?.ticks ?? 0;
      pending.push(...(children.get(pid) ?? []));
    }
    used[name] = (ticks * 1000) / TICKS_PER_SECOND;
  }
  return used;
}

/** What each tree used between two readings, in milliseconds per unit of work (a pair, say). */
export function cpuPer(
  before: Record<string, number> | undefined,
  after: Record<string, number> | undefined,
  units: number,
): Record<string, number> | undefined {
  if (!before || !after || units <= 0) return undefined;
  const per: Record<string, number> = {};
  for (const [name, ms] of Object.entries(after)) {
    if (before[name] !== undefined) per[name] = Math.round(((ms - before[name]) / units) * 1000) / 1000;
  }
  return per;
}
