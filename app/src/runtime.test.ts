import { createLogger, loadConfig } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type Runtime } from './runtime';

let db: TestDatabase;
let runtime: Runtime;

beforeAll(async () => {
  db = await createTestDatabase();
  runtime = await openRuntime(
    loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv),
    createLogger('silent'),
  );
});

afterAll(async () => {
  await runtime?.close();
  await db?.drop();
});

const commitSetting = async (sql: Runtime['sql']) =>
  (
    await sql<{ setting: string; source: string }[]>`
    select setting, source from pg_settings where name = 'synchronous_commit'`
  )[0];

describe('the runtime’s connections', () => {
  it('commit the read models without waiting for the disk, and everything else as the server is set', async () => {
    expect(await commitSetting(runtime.projection.sql)).toEqual({ setting: 'off', source: 'client' });
    expect((await commitSetting(runtime.sql))?.source).not.toBe('client');
  });
});
