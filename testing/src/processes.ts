import { migrate } from '@shiftcover/platform';
import { startNatsServer, type TestNatsServer } from '@shiftcover/platform/testing';
import { type MailPlannerDeps, mailMigrations } from '@shiftcover/processes';
import { install, projections } from '@shiftcover/projections';
import type { Sql } from 'postgres';
import { openBench, type Prepared, prepare } from './bench';
import { startSmtpServer, type TestSmtpServer } from './smtp';

export interface ProcessWorldOptions {
  /** Installs every read model (empty until `project()`). */
  readModels?: boolean;
  /** Starts a nats-server of its own. */
  nats?: boolean;
  /** Starts an SMTP server that keeps what it receives. */
  smtp?: boolean;
}

interface World extends Prepared {
  sql: Sql;
  /** The mail planner over this world; its read models are caught up with `project()` unless told otherwise. */
  mailPlanner(readModelsAt?: MailPlannerDeps['readModelsAt']): MailPlannerDeps;
  /** Stops the servers and drops the database. */
  close(): Promise<void>;
}

/** The world `openProcessWorld(options)` gives: its servers are there when the options ask for them. */
export type ProcessWorld<O extends ProcessWorldOptions> = World &
  (O extends { nats: true } ? { nats: TestNatsServer } : unknown) &
  (O extends { smtp: true } ? { smtp: TestSmtpServer } : unknown);

/** What the processes' tests start from: an empty store with the mail tables, in a database of its own. */
export async function openProcessWorld<O extends ProcessWorldOptions>(options: O): Promise<ProcessWorld<O>> {
  const bench = await openBench();
  const prepared = await prepare(bench.sql);
  await migrate(bench.sql, 'mail', mailMigrations);
  if (options.readModels) for (const projection of projections) await install(bench.sql, projection);
  const nats = options.nats ? await startNatsServer() : undefined;
  const smtp = options.smtp ? await startSmtpServer() : undefined;
  const world: World = {
    ...prepared,
    sql: bench.sql,
    mailPlanner: (readModelsAt = () => prepared.project()) => ({
      sql: bench.sql,
      store: prepared.store,
      vault: prepared.vault,
      publicUrl: 'https://shifts.example.org',
      smtpConfigured: true,
      readModelsAt,
    }),
    async close() {
      await smtp?.close();
      await nats?.stop();
      await bench.close();
    },
  };
  return Object.assign(world, nats && { nats }, smtp && { smtp }) as ProcessWorld<O>;
}
