import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  type ChainKey,
  CommandHandler,
  createEsdbEventStore,
  createPostgresEventStore,
  type EventStore,
  migrateEventStore,
  PersonalDataVault,
  PostgresSnapshots,
  personalDataMigrations,
  snapshotMigrations,
} from '@shiftcover/eventstore';
import {
  type Config,
  connect,
  type Logger,
  LoginThrottle,
  migrate,
  sessionMigrations,
  throttleMigrations,
} from '@shiftcover/platform';
import type { EmbeddedDatabase } from '@shiftcover/platform/embedded';
import { eraseFromMail, mailMigrations } from '@shiftcover/processes';
import { projectionMigrations } from '@shiftcover/projections';
import type { Sql } from 'postgres';
import { auditChainKey } from './audit/chain-key';
import { Operations, parkedEventsVisible, storeChecks } from './operations';

/** Everything a process of the product needs to issue commands, wired once. */
export interface Runtime {
  sql: Sql;
  store: EventStore;
  vault: PersonalDataVault;
  handler: CommandHandler;
  /** The audit hash chain's key, when there is one (see audit/chain-key.ts). */
  chainKey?: ChainKey;
  databaseUrl: string;
  /**
   * The projector's own connections (a small pool, and the store and vault read through it), so
   * that the read models never wait in the queue of a burst of requests for a connection: a
   * worker's read-your-writes depends on them keeping up under exactly that load.
   */
  projection: { sql: Sql; store: EventStore; vault: PersonalDataVault };
  /** Metrics and readiness checks of this process. */
  operations: Operations;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** The caller stops the runtime on SIGINT and SIGTERM itself (a server with `closeOnSignals`). */
  handlesSignals?: boolean;
}

/**
 * Connections of the projector's own pool; catching up, the read models' transactions take turns
 * on them. Its commits do not wait for the disk: the read models are worked out again from the log
 * after a crash, and a commit that waits holds back every reader of the log meanwhile (§5.3).
 */
const PROJECTION_CONNECTIONS = 4;

/** Where the projector's own connections go: the database, and EventStoreDB when it holds the log. */
export interface ProjectionSetup {
  databaseUrl: string;
  eventstoreUrl?: string;
  chainKey?: ChainKey;
}

/**
 * The projector's own pool, and the store and vault read through it (`Runtime.projection`), for a
 * projector running apart from a runtime: on a thread of its own (`projector-thread.ts`).
 */
export function openProjectionDeps({
  databaseUrl,
  eventstoreUrl,
  chainKey,
}: ProjectionSetup): Runtime['projection'] & {
  close(): Promise<void>;
} {
  const sql = connect(databaseUrl, { max: PROJECTION_CONNECTIONS, asyncCommit: true, customPlans: true });
  const store = eventstoreUrl
    ? createEsdbEventStore({ connectionString: eventstoreUrl, chainKey })
    : createPostgresEventStore({ sql, chainKey });
  return {
    sql,
    store,
    vault: new PersonalDataVault(sql),
    async close() {
      await store.close();
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * The main pool's size when `DATABASE_POOL_SIZE` is unset: four connections per core, 8 to 20.
 * Most of what a command waits for is PostgreSQL's work on its connection (the append, the commit's
 * flush), and many more backends than cores doing it contend rather than overlap: on two cores,
 * claim + approve at 64 clients made about a fifth more pairs a second through 8 connections than
 * through 20 (BENCHMARKS.md).
 */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.min(20, Math.max(8, 4 * cores));
}

export async function openRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const dataDir = path.resolve(config.DATA_DIR, 'postgres');
    // Loaded only here: the embedded binaries are a development dependency, absent from the image.
    const { startEmbeddedPostgres } = await import('@shiftcover/platform/embedded').catch((error) => {
      throw new Error(
        'DATABASE_URL is not set, and embedded PostgreSQL is not installed here (it comes with the development dependencies): set DATABASE_URL',
        { cause: error },
      );
    });
    embedded = await startEmbeddedPostgres({
      dataDir,
      port: config.EMBEDDED_POSTGRES_PORT,
      handlesSignals: options.handlesSignals,
    });
    databaseUrl = embedded.url;
    logger.info({ dataDir, port: embedded.port }, 'embedded PostgreSQL started');
  }
  const sql = connect(databaseUrl, { max: config.DATABASE_POOL_SIZE ?? defaultPoolSize() });
  const projectionSql = connect(databaseUrl, {
    max: PROJECTION_CONNECTIONS,
    asyncCommit: true,
    customPlans: true,
  });
  try {
    await migrate(sql, 'personal-data', personalDataMigrations);
    await migrate(sql, 'sessions', sessionMigrations);
    await migrate(sql, 'login-throttle', throttleMigrations);
    await migrate(sql, 'projections', projectionMigrations);
    await migrate(sql, 'mail', mailMigrations);
    await migrate(sql, 'stream-snapshots', snapshotMigrations);
    const chainKey = await auditChainKey(config, logger);
    let store: EventStore;
    let projectionStore: EventStore;
    if (config.EVENTSTORE_URL) {
      store = createEsdbEventStore({ connectionString: config.EVENTSTORE_URL, chainKey });
      projectionStore = store;
      logger.info('event store: EventStoreDB');
    } else {
      await migrateEventStore(sql);
      store = createPostgresEventStore({ sql, chainKey });
      projectionStore = createPostgresEventStore({ sql: projectionSql, chainKey });
      logger.info('event store: PostgreSQL');
    }
    const vault = new PersonalDataVault(sql);
    const operations = new Operations();
    operations.checks.push(...storeChecks(sql, store));
    parkedEventsVisible(operations, sql);
    // Copies of a person's data outside the events go with them.
    const throttle = new LoginThrottle(sql);
    vault.alsoErase(eraseFromMail(sql));
    vault.alsoErase(async ({ personal }) => {
      if (typeof personal?.username === 'string') await throttle.forget(personal.username);
    });
    const handler = new CommandHandler({
      store,
      vault,
      onCommand: operations.metrics.countCommand,
      snapshotStore: new PostgresSnapshots(sql),
    });
    operations.metrics.gauge(
      'shiftcover_remembered_streams',
      'Streams the command handler keeps folded in memory (`of="streams"`), and the events folded into them (`of="events"`).',
      ['of'],
      async () => {
        const { streams, events } = handler.rememberedSize;
        return [
          { labels: { of: 'streams' }, value: streams },
          { labels: { of: 'events' }, value: events },
        ];
      },
    );
    return {
      sql,
      store,
      vault,
      handler,
      chainKey,
      databaseUrl,
      projection: { sql: projectionSql, store: projectionStore, vault: new PersonalDataVault(projectionSql) },
      operations,
      async close() {
        await store.close();
        if (projectionStore !== store) await projectionStore.close();
        await projectionSql.end({ timeout: 5 });
        await sql.end({ timeout: 5 });
        await embedded?.stop();
      },
    };
  } catch (error) {
    await projectionSql.end({ timeout: 1 });
    await sql.end({ timeout: 1 });
    await embedded?.stop();
    throw error;
  }
}
