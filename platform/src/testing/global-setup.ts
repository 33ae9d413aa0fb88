import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded';
import { killRecordedGroups, REGISTRY_ENV } from './processes';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
  }
}

/**
 * One PostgreSQL server per test run (`TEST_DATABASE_URL` when given, else an embedded one), and
 * the run's registry of process groups: whatever a test started and did not stop is killed at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-test-'));
  // As root the server runs as the `postgres` user, which must be able to enter the folder.
  await chmod(root, 0o755);
  const registry = path.join(root, 'processes');
  // Set before the workers start, which inherit it.
  process.env[REGISTRY_ENV] = registry;
  const given = process.env.TEST_DATABASE_URL;
  const server = given
    ? undefined
    : await startEmbeddedPostgres({ dataDir: path.join(root, 'pg'), ephemeral: true });
  project.provide('databaseAdminUrl', given ?? server!.url);
  return async () => {
    const left = killRecordedGroups(registry);
    if (left > 0) console.warn(`Stopped ${left} process group(s) that tests left running.`);
    await server?.stop();
    await rm(root, { recursive: true, force: true });
  };
}
