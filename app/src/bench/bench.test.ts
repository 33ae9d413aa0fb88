import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

it('runs every benchmark briefly end to end (figures are only meaningful from npm run bench)', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'app/src/bench/run.ts', '--smoke'], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(stdout).toMatch(/GET \/api\/shifts, 200 shifts: .*"failures":0/);
  expect(stdout).toMatch(
    /claim \+ approve, 4 clients: event-sourced .*"failures":0.* \| CRUD .*"failures":0/,
  );
  expect(stdout).toMatch(/read-your-writes lag: \{"samples":20/);
  expect(stdout).toMatch(/web: \{"js":\{"raw":\d+/);
  expect(stdout).toContain('rebuilt read models are identical to the live ones');
}, 300_000);
