import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*/src/**/*.test.ts'],
    globalSetup: ['platform/src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most test files spend their time waiting on PostgreSQL, NATS, SMTP or Chromium, so three forks
    // keep a 2-core machine busy where the default (one fewer than the cores) leaves it idle.
    maxWorkers: 3,
  },
});
