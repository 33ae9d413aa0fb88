import { projections, type RebuildProgress, readCheckpoints, rebuild } from '@shiftcover/projections';
import type { Runtime } from './runtime';

/** `projections:status`: each projection's checkpoint and how far behind the log it is. */
export async function projectionStatus(runtime: Runtime): Promise<string> {
  const head = await runtime.store.headPosition();
  const checkpoints = new Map((await readCheckpoints(runtime.sql)).map((c) => [c.name, c]));
  const [newest] = await runtime.sql<
    { recorded_at: Date | null }[]
  >`select max(recorded_at) as recorded_at from events`.catch(() => [{ recorded_at: null }]);
  const lines = ['projection          checkpoint      lag (events)   lag (s)   version'];
  for (const projection of projections) {
    const checkpoint = checkpoints.get(projection.name);
    const position = checkpoint?.position ?? 0n;
    const behind = head - position;
    const seconds =
      behind > 0n && checkpoint && newest?.recorded_at
        ? Math.max(0, (newest.recorded_at.getTime() - checkpoint.updatedAt.getTime()) / 1000).toFixed(1)
        : '0.0';
    const version = checkpoint
      ? `${checkpoint.version}${checkpoint.version !== projection.version ? ` (code: ${projection.version})` : ''}`
      : 'not installed';
    lines.push(
      `${projection.name.padEnd(19)} ${position.toString().padStart(10)}   ${behind.toString().padStart(12)}   ${seconds.padStart(7)}   ${version}`,
    );
  }
  lines.push(`log head: ${head}`);
  return lines.join('\n');
}

function bar(progress: RebuildProgress, width = 30): string {
  const total = progress.head > 0n ? Number(progress.head) : 1;
  const done = Math.min(1, Number(progress.position) / total);
  const rate = progress.elapsedMs > 0 ? (progress.events / progress.elapsedMs) * 1000 : 0;
  const left = rate > 0 ? Math.max(0, (total - Number(progress.position)) / rate) : 0;
  const filled = Math.round(done * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(done * 100).toFixed(0).padStart(3)}%  ${Math.round(rate)} events/s  ${left.toFixed(0)} s left`;
}

/** `projections:rebuild [name]`: fresh tables filled from the whole log, swapped in when caught up. */
export async function rebuildProjections(
  runtime: Runtime,
  name: string | undefined,
  write: (text: string) => void,
): Promise<RebuildProgress[]> {
  const chosen = name ? projections.filter((p) => p.name === name) : projections;
  if (chosen.length === 0) {
    throw new Error(`No projection named ${name}. Known: ${projections.map((p) => p.name).join(', ')}`);
  }
  const results: RebuildProgress[] = [];
  for (const projection of chosen) {
    let last = 0;
    const result = await rebuild(
      { sql: runtime.sql, store: runtime.store, vault: runtime.vault },
      projection,
      (p) => {
        if (Date.now() - last < 200 && p.position !== p.head) return;
        last = Date.now();
        write(`\r${projection.name.padEnd(17)} ${bar(p)}`);
      },
    );
    write(
      `\r${projection.name.padEnd(17)} ${bar({ ...result, head: result.position })}  ${result.events} events in ${(result.elapsedMs / 1000).toFixed(1)} s\n`,
    );
    results.push(result);
  }
  return results;
}
