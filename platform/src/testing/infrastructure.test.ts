import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../db/connect';
import { migrate } from '../db/migrate';
import { createTestDatabase } from './database';
import { startNatsServer } from './nats';
import { groupMembers, killRecordedGroups, REGISTRY_ENV, spawnGroup } from './processes';

describe('test infrastructure', () => {
  it('gives each test file its own empty database, and migrations apply once', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    expect(first.url).not.toBe(second.url);
    const sql = connect(first.url);
    try {
      const migrations = [{ id: '001-notes', up: 'create table notes (id int primary key)' }];
      await Promise.all([migrate(sql, 'test', migrations), migrate(sql, 'test', migrations)]);
      await migrate(sql, 'test', [
        ...migrations,
        { id: '002-more', up: 'alter table notes add column body text' },
      ]);
      const applied = await sql`select id from schema_migrations where component = 'test' order by id`;
      expect(applied.map((row) => row.id)).toEqual(['001-notes', '002-more']);
    } finally {
      await sql.end();
      await first.drop();
      await second.drop();
    }
  });

  describe('nats-server with JetStream', () => {
    let server: Awaited<ReturnType<typeof startNatsServer>> | undefined;
    afterAll(async () => server?.stop());

    it('starts on a free port, stores messages, and keeps them across a restart', async () => {
      server = await startNatsServer();
      let nc = await natsConnect({ servers: server.url });
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'probe', subjects: ['probe.>'] });
      await jetstream(nc).publish('probe.one', 'hello', { msgID: 'm1' });
      const duplicate = await jetstream(nc).publish('probe.one', 'hello', { msgID: 'm1' });
      expect(duplicate.duplicate).toBe(true);
      await nc.close();

      await server.restart();
      nc = await natsConnect({ servers: server.url });
      const info = await (await jetstreamManager(nc)).streams.info('probe');
      expect(info.state.messages).toBe(1);
      await nc.close();
    });
  });

  it("records the process groups tests start, so the run's teardown stops what a test left running", async () => {
    expect(process.env[REGISTRY_ENV], 'the global setup names a registry for the workers').toBeTruthy();
    const registry = await mkdtemp(path.join(tmpdir(), 'shiftcover-registry-'));
    const runs = process.env[REGISTRY_ENV];
    process.env[REGISTRY_ENV] = registry;
    // A shell with a child of its own, as a server with its helpers would be.
    const child = spawnGroup('sh', ['-c', 'sleep 300 & sleep 300'], { stdio: 'ignore' });
    process.env[REGISTRY_ENV] = runs;
    try {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      expect(await readdir(registry)).toEqual([String(child.pid)]);
      expect(killRecordedGroups(registry)).toBe(1);
      await exited;
      // SIGKILL lands at once, yet a process is gone only when the kernel has torn it down.
      await expect.poll(() => groupMembers(child.pid!)).toEqual([]);
      expect(await readdir(registry)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await rm(registry, { recursive: true, force: true });
    }
  });
});
