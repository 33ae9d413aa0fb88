import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*/src/**/*.test.ts'],
    globalSetup: ['platform/src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most test files spend their time waiting on PostgreSQL, NATS, SMTP or Chromium, so at least
    // three forks: on 2 cores the default (one fewer than the cores) leaves the machine half idle.
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
