import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
  }
}

/** One PostgreSQL server per test run: `TEST_DATABASE_URL` when given, else an embedded one. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('databaseAdminUrl', given);
    return async () => {};
  }
  const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-test-'));
  // As root the server runs as the `postgres` user, which must be able to enter the folder.
  await chmod(root, 0o755);
  const dataDir = path.join(root, 'pg');
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  project.provide('databaseAdminUrl', server.url);
  return async () => {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  };
}
