import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { canonicalJson } from '@shiftcover/eventstore';
import { createLogger, type Logger, loadConfig } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type Runtime } from '../runtime';
import { auditChainKey } from './chain-key';
import { verifyChains } from './commands';

const run = promisify(execFile);
const KEY = 'the audit chain key of this deployment';

function warnings() {
  const seen: string[] = [];
  const logger = { warn: (message: string) => seen.push(message) } as unknown as Logger;
  return { logger, seen };
}

describe('where the audit chain key comes from', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'chain-key-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('the embedded setup makes a key of its own in DATA_DIR, readable by its owner only, and keeps it', async () => {
    const config = loadConfig({ DATA_DIR: dataDir } as NodeJS.ProcessEnv);
    const { logger, seen } = warnings();
    const first = await auditChainKey(config, logger);
    expect(first).toHaveLength(32);
    expect((await stat(path.join(dataDir, 'audit-chain.key'))).mode & 0o777).toBe(0o600);
    expect(await auditChainKey(config, logger)).toEqual(first);
    expect(seen).toEqual([]);
  });

  it('takes AUDIT_CHAIN_KEY, or SESSION_SECRET, its earlier name, from the environment', async () => {
    const { logger } = warnings();
    const env = { DATA_DIR: dataDir, DATABASE_URL: 'postgres://db.example/app' };
    const keyed = loadConfig({ ...env, AUDIT_CHAIN_KEY: KEY, SESSION_SECRET: 'older' } as NodeJS.ProcessEnv);
    expect(await auditChainKey(keyed, logger)).toEqual(Buffer.from(KEY));
    const older = loadConfig({ ...env, SESSION_SECRET: 'older' } as NodeJS.ProcessEnv);
    expect(await auditChainKey(older, logger)).toEqual(Buffer.from('older'));
  });

  it('warns in one line when an outside database is used without a key', async () => {
    const { logger, seen } = warnings();
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://db.example/app',
    } as NodeJS.ProcessEnv);
    expect(await auditChainKey(config, logger)).toBeUndefined();
    expect(seen).toEqual([expect.stringMatching(/^AUDIT_CHAIN_KEY is not set/)]);
  });
});

describe('audit:verify against someone with database access but not the key', () => {
  let db: TestDatabase;
  let runtime: Runtime;

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({ DATABASE_URL: db.url, AUDIT_CHAIN_KEY: KEY } as NodeJS.ProcessEnv);
    runtime = await openRuntime(config, createLogger('silent'));
    for (const stream of ['residence-a', 'residence-b']) {
      const event = (type: string) => ({
        id: randomUUID(),
        type,
        data: { residenceId: stream, name: 'Maple House' },
        metadata: {
          commandId: randomUUID(),
          correlationId: randomUUID(),
          causationId: randomUUID(),
          actorId: 'dev-1',
          actorRole: 'developer',
          schemaVersion: 1,
        },
      });
      await runtime.store.append(stream, [event('ResidenceCreated'), event('ResidenceUpdated')], 'no_stream');
    }
  });
  afterAll(async () => {
    await runtime.close();
    await db.drop();
  });

  it('names the stream rewritten and re-hashed the unkeyed way, and the CLI exits with 1', async () => {
    const collected: string[] = [];
    expect(await verifyChains(runtime, (text) => collected.push(text))).toBe(true);

    // The attacker changes the name, then recomputes the stream's SHA-256 chain from the start.
    await runtime.sql`update events set data = jsonb_set(data, '{name}', '"Oak Lodge"') where stream_id = 'residence-b'`;
    const rows = await runtime.sql<
      { event_id: string; revision: string; type: string; data: unknown; metadata: Record<string, unknown> }[]
    >`
      select event_id, revision::text, type, data, metadata from events where stream_id = 'residence-b' order by revision`;
    let previous = '0'.repeat(64);
    for (const row of rows) {
      const { chainHash: _old, ...metadata } = row.metadata;
      previous = createHash('sha256')
        .update(previous)
        .update('\n')
        .update(canonicalJson(['residence-b', row.revision, row.event_id, row.type, row.data, metadata]))
        .digest('hex');
      await runtime.sql`update events set metadata = jsonb_set(metadata, '{chainHash}', ${runtime.sql.json(previous)}) where event_id = ${row.event_id}`;
    }

    const broken: string[] = [];
    expect(await verifyChains(runtime, (text) => broken.push(text))).toBe(false);
    expect(broken.join('')).toContain('BROKEN residence-b at revision 0');

    const cli = await run('npx', ['tsx', 'app/src/cli.ts', 'audit:verify'], {
      env: { ...process.env, DATABASE_URL: runtime.databaseUrl, AUDIT_CHAIN_KEY: KEY },
    }).catch((error: { code: number; stdout: string }) => error);
    expect('code' in cli ? cli.code : 0).toBe(1);
    expect(cli.stdout).toContain('BROKEN residence-b');
    expect(cli.stdout).not.toContain('BROKEN residence-a');
  });
});
