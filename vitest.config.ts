import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*/src/**/*.test.ts'],
    globalSetup: ['platform/src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // What a test waits to see (a card drawn, a read model caught up) it waits for by `expect.poll`,
    // never by a fixed pause: on a slow or shared machine the default second is too short to see it.
    expect: { poll: { timeout: 10_000 } },
    // date-fns ships some 250 modules under a 199 KB package.json, which Node 22+ reads again for
    // every module it loads: about a second per test file on Node 24, against 0.08 s on Node 20.
    // Bundled once per run, it loads as one module on any Node.
    deps: { optimizer: { ssr: { enabled: true, include: ['date-fns', 'date-fns-tz'] } } },
    pool: 'forks',
    // Most test files spend their time waiting on PostgreSQL, NATS, SMTP or Chromium, so as many
    // forks as cores: on 2 cores the default (one fewer) leaves the machine half idle. Not more:
    // the files share one PostgreSQL server, whose oldest writing transaction in any database bounds
    // what every file's event log can read (docs/architecture.md §4), and a third file's batches
    // held readers of the other two past their one-second wait.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
