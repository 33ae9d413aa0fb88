import path from 'node:path';
import {
  CommandHandler,
  createEsdbEventStore,
  createPostgresEventStore,
  type EventStore,
  migrateEventStore,
  PersonalDataVault,
  personalDataMigrations,
} from '@shiftcover/eventstore';
import {
  type Config,
  connect,
  type EmbeddedDatabase,
  type Logger,
  migrate,
  sessionMigrations,
  startEmbeddedPostgres,
  throttleMigrations,
} from '@shiftcover/platform';
import { mailMigrations } from '@shiftcover/processes';
import { projectionMigrations } from '@shiftcover/projections';
import type { Sql } from 'postgres';

/** Everything a process of the product needs to issue commands, wired once. */
export interface Runtime {
  sql: Sql;
  store: EventStore;
  vault: PersonalDataVault;
  handler: CommandHandler;
  databaseUrl: string;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, logger: Logger): Promise<Runtime> {
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const dataDir = path.resolve(config.DATA_DIR, 'postgres');
    embedded = await startEmbeddedPostgres({ dataDir, port: config.EMBEDDED_POSTGRES_PORT });
    databaseUrl = embedded.url;
    logger.info({ dataDir, port: embedded.port }, 'embedded PostgreSQL started');
  }
  const sql = connect(databaseUrl, { max: 20 });
  try {
    await migrate(sql, 'personal-data', personalDataMigrations);
    await migrate(sql, 'sessions', sessionMigrations);
    await migrate(sql, 'login-throttle', throttleMigrations);
    await migrate(sql, 'projections', projectionMigrations);
    await migrate(sql, 'mail', mailMigrations);
    let store: EventStore;
    if (config.EVENTSTORE_URL) {
      store = createEsdbEventStore({ connectionString: config.EVENTSTORE_URL });
      logger.info('event store: EventStoreDB');
    } else {
      await migrateEventStore(sql);
      store = createPostgresEventStore({ sql });
      logger.info('event store: PostgreSQL');
    }
    const vault = new PersonalDataVault(sql);
    const handler = new CommandHandler({ store, vault });
    return {
      sql,
      store,
      vault,
      handler,
      databaseUrl,
      async close() {
        await store.close();
        await sql.end({ timeout: 5 });
        await embedded?.stop();
      },
    };
  } catch (error) {
    await sql.end({ timeout: 1 });
    await embedded?.stop();
    throw error;
  }
}
