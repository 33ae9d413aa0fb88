import { createLogger, loadConfig } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import { afterAll, beforeAll } from 'vitest';
import { openRuntime, type Runtime } from '../runtime';

/**
 * A fresh test database and a silent runtime on it for the tests of one file: filled in before
 * they run, the runtime ended and the database dropped after them.
 */
export function useTestRuntime(): { db: TestDatabase; runtime: Runtime } {
  const opened = {} as { db: TestDatabase; runtime: Runtime };
  beforeAll(async () => {
    opened.db = await createTestDatabase();
    opened.runtime = await openRuntime(
      loadConfig({ DATABASE_URL: opened.db.url, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv),
      createLogger('silent'),
    );
  });
  afterAll(async () => {
    await opened.runtime?.close();
    await opened.db?.drop();
  });
  return opened;
}
