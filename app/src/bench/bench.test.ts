import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupMembers, spawnGroup, stopGroup } from '@shiftcover/platform/testing';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface BenchRun {
  env?: Record<string, string>;
  /**
   * The bench is stopped once this has passed (by default 7 minutes: the smoke run takes about one
   * on an idle machine, and was seen at three beside the rest of the tests on two cores whose host
   * caps their speed; the tests that run it allow a minute more)…
   */
  limitMs?: number;
  /** …or once this is aborted. */
  signal?: AbortSignal;
  onStart?: (pid: number) => void;
}

/**
 * The bench in its own process group with its own temporary folder: whether it passes, fails or is
 * cut off, the group (the bench, its two servers, their PostgreSQL, the browser) is stopped and the
 * folder removed.
 */
async function runBench(args: string[], { env = {}, limitMs = 420_000, signal, onStart }: BenchRun = {}) {
  const scratch = await mkdtemp(path.join(tmpdir(), 'shiftcover-bench-run-'));
  // As root the bench's PostgreSQL runs as the `postgres` user, which must be able to enter it.
  await chmod(scratch, 0o755);
  const child = spawnGroup(process.execPath, ['--import', 'tsx', 'app/src/bench/run.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: scratch, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  onStart?.(child.pid!);
  let timer: NodeJS.Timeout | undefined;
  try {
    // The bench's exit, not the end of its output: a process it left behind could hold that open.
    const code = await new Promise<number | null>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the bench ran longer than ${limitMs} ms`)), limitMs);
      signal?.addEventListener('abort', () => reject(new Error('the bench was cut off')));
      child.once('exit', (exitCode) => resolve(exitCode));
      child.once('error', reject);
    });
    // What the bench left in its temporary folder, where everything it makes on disk goes.
    return { code, stdout, stderr, leftovers: await readdir(scratch) };
  } finally {
    clearTimeout(timer);
    await stopGroup(child);
    await rm(scratch, { recursive: true, force: true });
  }
}

it('runs every benchmark briefly end to end (figures are only meaningful from npm run bench)', async () => {
  const { code, stdout, stderr } = await runBench(['--smoke']);
  expect(code, stderr).toBe(0);
  expect(stdout).toMatch(
    /GET \/api\/shifts\?status=open&limit=100, 200 shifts: .*"failures":0.* \| bare route .*"failures":0/,
  );
  expect(stdout).toMatch(
    /claim \+ approve, 4 clients: event-sourced .*"failures":0.* \| CRUD .*"failures":0/,
  );
  expect(stdout).toMatch(
    /schedule by history: \[\{"held":0,"decideMicros":[\d.]+,"foldMicros":[\d.]+,"loadMillis":[\d.]+,"stepByStepLoadMillis":[\d.]+\}/,
  );
  // A schedule of 600 events is long enough to have its state kept, and loaded from it.
  expect(stdout).toMatch(
    /stored loads by history: \[\{"held":0,"wholeMillis":[\d.]+\},\{"held":50,"wholeMillis":[\d.]+\},\{"held":600,"wholeMillis":[\d.]+,"fromSnapshotMillis":[\d.]+\}\]/,
  );
  expect(stdout).toMatch(/read-your-writes lag: \{"samples":20/);
  expect(stdout).toMatch(/read-your-writes lag under 4 clients: \{"samples":[1-9]/);
  expect(stdout).toMatch(/the baseline's read-back under 4 clients: \{"samples":[1-9]/);
  expect(stdout).toMatch(/goals: every rebuild .*; live projectors together/);
  expect(stdout).toMatch(/web: \{"js":\{"raw":\d+/);
  expect(stdout).toContain('rebuilt read models are identical to the live ones');
  for (const store of ['shiftcover', 'emmett', 'raw insert']) {
    expect(stdout).toMatch(
      new RegExp(`store bench, repeat 1, ${store}: own streams \\{"eventsPerSecond":\\d+`),
    );
  }
  expect(stdout).toMatch(
    /store bench, read all: \{"shiftcover":\[\d+\],"emmett":\[\d+\],"raw scan":\[\d+\]\}/,
  );
  expect(stdout).toMatch(/store results: \{"settings"/);
  expect(stdout).toMatch(/year bench, \d+ events: \[\{"name":"bare route, constant JSON".*"failures":0/);
  expect(stdout).toMatch(
    /year bench, \d+ events, one client: \{"commands":\{.*"failures":0\},"lag":\{"samples":10/,
  );
}, 480_000);

it('without Chromium, stops before starting anything and says in one line what to install', async () => {
  const { code, stderr } = await runBench(['--smoke'], {
    env: { CHROMIUM_PATH: '/nonexistent/chromium' },
    limitMs: 60_000,
  });
  expect(code).toBe(1);
  expect(stderr.trim()).toBe(
    "No Chromium at /nonexistent/chromium: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable.",
  );
}, 90_000);

it('when its server cannot start, says why and leaves nothing behind', async () => {
  let pgid = 0;
  const { code, stderr, leftovers } = await runBench(['--smoke'], {
    // A configuration the server refuses, and so ends at once; the bench's own database opens.
    env: { PUBLIC_URL: 'not-a-url' },
    limitMs: 120_000,
    onStart: (pid) => (pgid = pid),
  });
  expect(code).not.toBe(0);
  expect(stderr).toContain('app/src/main.ts exited with 1');
  // tsx, which runs the bench from its sources, keeps its compile cache there (`tsx-<uid>`).
  expect(leftovers.filter((name) => !name.startsWith('tsx-'))).toEqual([]);
  await expect.poll(() => groupMembers(pgid)).toEqual([]);
}, 180_000);

it('cut off midway, leaves none of its processes running', async () => {
  const cutOff = new AbortController();
  let pgid = 0;
  let seen: string[] = [];
  const watching = setInterval(() => {
    if (cutOff.signal.aborted) return;
    seen = groupMembers(pgid);
    // The first server it starts (the year's reads) and its PostgreSQL are up: the moment to cut the
    // bench off, with a server and the PostgreSQL it uses to stop.
    if (seen.some((m) => m.includes('app/src/main.ts')) && seen.some((m) => /postgres -D/.test(m))) {
      cutOff.abort();
    }
  }, 200);
  try {
    await expect(
      runBench(['--smoke'], { signal: cutOff.signal, onStart: (pid) => (pgid = pid) }),
    ).rejects.toThrow('the bench was cut off');
  } finally {
    clearInterval(watching);
  }
  expect(seen.length).toBeGreaterThanOrEqual(4);
  await expect.poll(() => groupMembers(pgid)).toEqual([]);
}, 480_000);
