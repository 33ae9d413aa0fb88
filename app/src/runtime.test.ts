import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createLogger, loadConfig } from '@shiftcover/platform';
import { describe, expect, it } from 'vitest';
import { defaultPoolSize, openRuntime, type Runtime } from './runtime';
import { useTestRuntime } from './testing/runtime';

const opened = useTestRuntime();

const commitSetting = async (sql: Runtime['sql']) =>
  (
    await sql<{ setting: string; source: string }[]>`
    select setting, source from pg_settings where name = 'synchronous_commit'`
  )[0];

describe('the runtime’s connections', () => {
  it('commit the read models without waiting for the disk, and everything else as the server is set', async () => {
    expect(await commitSetting(opened.runtime.projection.sql)).toEqual({ setting: 'off', source: 'client' });
    expect((await commitSetting(opened.runtime.sql))?.source).not.toBe('client');
  });
});

/**
 * How one connection of `sql` plans a lookup by the batch's ids, run six times while its table held
 * 200 rows (analyzed at that size), once the table has grown to 20,000 rows that PostgreSQL has not
 * analyzed since: as a read model grows under the projector between two of autovacuum's visits.
 */
async function lookupPlanAfterGrowth(sql: Runtime['sql']): Promise<string> {
  const connection = await sql.reserve();
  try {
    await connection`create temporary table grown (id int primary key, payload text)`;
    await connection`insert into grown select i, 'row' from generate_series(1, 200) i`;
    await connection`analyze grown`;
    await connection`prepare lookup(int[]) as select * from grown where id = any($1)`;
    // A batch's worth of ids, most of them not yet in the table.
    const batch = Array.from({ length: 100 }, (_, i) => i + 1).join(',');
    // PostgreSQL plans a statement's first five runs for their values, then weighs a plan for any.
    for (let i = 0; i < 6; i++) await connection.unsafe(`execute lookup('{${batch}}')`);
    await connection`insert into grown select i, 'row' from generate_series(201, 20000) i`;
    const [row] = await connection<{ 'QUERY PLAN': [{ Plan: { 'Node Type': string } }] }[]>`
      explain (format json) execute lookup(array[1, 2])`;
    return row!['QUERY PLAN'][0].Plan['Node Type'];
  } finally {
    await connection`deallocate lookup`.catch(() => {});
    await connection`drop table if exists grown`;
    connection.release();
  }
}

describe('the read models’ pool', () => {
  it('plans each statement for its values, so a lookup planned while a table was small does not scan it once it has grown', async () => {
    expect(await lookupPlanAfterGrowth(opened.runtime.projection.sql)).not.toBe('Seq Scan');
    // A connection that keeps its plans, as the main pool's do, still scans the whole table.
    expect(await lookupPlanAfterGrowth(opened.runtime.sql)).toBe('Seq Scan');
  });
});

describe('the main pool', () => {
  it('holds four connections per core, 8 to 20, unless DATABASE_POOL_SIZE says otherwise', async () => {
    expect([1, 2, 3, 4, 5, 8, 64].map((cores) => defaultPoolSize(cores))).toEqual([8, 8, 12, 16, 20, 20, 20]);
    const sized = await openRuntime(
      loadConfig({
        DATABASE_URL: opened.db.url,
        DATABASE_POOL_SIZE: '3',
        LOG_LEVEL: 'silent',
      } as NodeJS.ProcessEnv),
      createLogger('silent'),
    );
    try {
      // Six statements at once on three connections: no more than three backends of the pool at a time.
      const backends = await Promise.all(
        Array.from(
          { length: 6 },
          () => sized.sql<{ pid: number }[]>`select pg_backend_pid() as pid, pg_sleep(0.05)`,
        ),
      );
      expect(new Set(backends.map(([row]) => row!.pid)).size).toBe(3);
    } finally {
      await sized.close();
    }
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '1' } as NodeJS.ProcessEnv)).toThrow();
  });
});

describe('a setting npm start cannot use', () => {
  it('is named in one line, without a stack trace, and nothing starts', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const started = Date.now();
    const failed = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'app/src/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_POOL_SIZE: 'many', DATABASE_URL: opened.db.url, PORT: '1' },
      timeout: 30_000,
    }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr?.trim().split('\n')).toEqual([
      'Invalid configuration: DATABASE_POOL_SIZE: Invalid input: expected number, received NaN',
    ]);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
