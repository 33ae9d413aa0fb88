import { type CommandService, createCommandService } from '@shiftcover/command-api';
import {
  CommandHandler,
  createPostgresEventStore,
  type EventStore,
  migrateEventStore,
  PersonalDataVault,
  personalDataMigrations,
} from '@shiftcover/eventstore';
import { connect, migrate } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import {
  applyNextBatch,
  type Projection,
  type ProjectorDeps,
  projectionMigrations,
  projections,
  readTable,
} from '@shiftcover/projections';
import type { Sql } from 'postgres';

export interface Bench {
  db: TestDatabase;
  sql: Sql;
  close(): Promise<void>;
}

/** A database of its own for one test file, dropped on close; `connections` bounds its pool. */
export async function openBench(connections = 10): Promise<Bench> {
  const db = await createTestDatabase();
  const sql = connect(db.url, { max: connections });
  return {
    db,
    sql,
    async close() {
      await sql.end();
      await db.drop();
    },
  };
}

export interface Prepared {
  store: EventStore;
  vault: PersonalDataVault;
  handler: CommandHandler;
  service: CommandService;
  deps: { sql: Sql; store: EventStore; vault: PersonalDataVault };
  /** Applies every read model up to the head of the log. */
  project(): Promise<void>;
}

export interface StoreOptions {
  /**
   * False for a store that appends to one stream per transaction, as the EventStoreDB adapter does
   * (no `appendTogether`): commands then take their steps on other streams one append at a time.
   */
  together?: boolean;
}

/** The store, its personal-data vault and command handler over `sql`, with the tables they and the read models keep. */
export async function installStore(
  sql: Sql,
  { together = true }: StoreOptions = {},
): Promise<Pick<Prepared, 'store' | 'vault' | 'handler'>> {
  await migrate(sql, 'personal-data', personalDataMigrations);
  await migrate(sql, 'projections', projectionMigrations);
  await migrateEventStore(sql);
  const { appendTogether, ...oneAtATime } = createPostgresEventStore({ sql });
  const store: EventStore = together ? { ...oneAtATime, appendTogether } : oneAtATime;
  const vault = new PersonalDataVault(sql);
  return { store, vault, handler: new CommandHandler({ store, vault }) };
}

/** An empty store with its read models, in the database's public schema (emptied first). */
export async function prepare(sql: Sql, options: StoreOptions = {}): Promise<Prepared> {
  await sql`drop schema public cascade`;
  await sql`create schema public`;
  const { store, vault, handler } = await installStore(sql, options);
  const service = createCommandService(handler, vault);
  const deps = { sql, store, vault };
  return { store, vault, handler, service, deps, project: () => catchUp(deps, projections) };
}

/** Applies batches until each projection has reached the head of the log. */
export async function catchUp(deps: ProjectorDeps, list: readonly Projection[]): Promise<void> {
  for (const projection of list) while ((await applyNextBatch(deps, projection)) > 0) {}
}

/** Every row of every read model, in a stable order, for comparing two builds. */
export async function dumpReadModels(sql: Sql): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const projection of projections) {
    for (const table of projection.tables) {
      const rows = await sql.unsafe(`select * from ${readTable(table)}`);
      dump[table] = [...rows]
        .map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))
        .sort();
    }
  }
  return dump;
}
