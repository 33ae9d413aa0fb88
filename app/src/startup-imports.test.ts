import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Module hooks that write every module Node resolves, one URL a line, to the file RESOLVED_LOG names. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.RESOLVED_LOG, resolved.url + '\\n');
  return resolved;
}
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shiftcover-imports-'));
  await writeFile(path.join(dir, 'hooks.mjs'), HOOKS);
  await writeFile(
    path.join(dir, 'register.mjs'),
    "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
  );
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The modules Node resolves to load `modules` as `npm start` runs them (through tsx). */
async function resolvedLoading(modules: readonly string[]): Promise<string[]> {
  const log = path.join(dir, `resolved-${modules.length}-${Date.now()}.log`);
  const script = modules.map((module) => `await import(${JSON.stringify(module)});`).join('\n');
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', path.join(dir, 'register.mjs'), '--input-type=module', '-e', script],
    { cwd: ROOT, env: { ...process.env, RESOLVED_LOG: log }, timeout: 60_000 },
  );
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean);
}

describe('what a server process loads at start', () => {
  it("loads date-fns function by function, never its index (about 250 modules, a second's reading on Node 22 and later)", async () => {
    const resolved = await resolvedLoading([
      path.join(ROOT, 'app/src/product.ts'),
      '@shiftcover/projections',
      '@shiftcover/read-api',
    ]);
    // It did load the product, date-fns among it.
    expect(resolved.some((url) => url.endsWith('/app/src/server.ts'))).toBe(true);
    expect(resolved.some((url) => url.includes('/node_modules/date-fns/'))).toBe(true);
    const indexes = resolved.filter((url) =>
      /\/node_modules\/date-fns\/index\.js$|\/node_modules\/date-fns-tz\/dist\/esm\/index\.js$/.test(url),
    );
    expect(indexes).toEqual([]);
    // Each of its modules resolves at most a few times; the index alone made it about 250.
    expect(new Set(resolved.filter((url) => url.includes('/node_modules/date-fns/'))).size).toBeLessThan(100);
  }, 90_000);
});
