import { countEventsAfter } from '@shiftcover/eventstore';
import { createLogger, loadConfig } from '@shiftcover/platform';
import type { TestSmtpServer } from '@shiftcover/testing';
import { sleep } from '../faults/kill-child';
import { openRuntime } from '../runtime';
import { differingTables, mailOutcome, mailsInFlight, missingWrites, settled } from './checks';
import { type Cluster, type Kind, startCluster } from './cluster';
import { Load, register } from './load';

/** The load runs this long before the first kill, between kills, and after the last. */
const PACE_MS = { before: 4_000, between: 2_000, after: 8_000 };

export interface Report {
  requests: number;
  /** Answers with a 5xx status, as "status method path". */
  serverErrors: string[];
  /** Answers neither 2xx nor 5xx that the load did not expect. */
  refusals: string[];
  gateway: { retried: number; failed: string[] };
  killed: string[];
  /** Acknowledged writes whose events are not in the store or whose effect the read models lack. */
  missingWrites: string[];
  /** Reads with `x-min-position` that did not show the reader's own write. */
  staleReads: number;
  /** Read-model tables that differ from a rebuild from the whole log. */
  differingTables: string[];
  mail: {
    planned: number;
    received: number;
    /** Planned mails the SMTP server never got, or got for the wrong recipient. */
    lost: string[];
    /** Copies beyond the first of mails that were not in flight when a process runner was killed. */
    unexplainedCopies: string[];
    /** Approved claims whose claimant got no confirmation. */
    unconfirmed: string[];
  };
  shifts: number;
  events: number;
}

/**
 * Two copies of every service under a mixed load through the gateway (sign-ins, shifts posted,
 * claimed and approved, reads of one's own writes), one copy of each kind killed with SIGKILL
 * mid-load while the load goes on; then what was acknowledged, projected and mailed is checked.
 */
export async function runScenario(world: {
  databaseUrl: string;
  natsUrl: string;
  smtp: TestSmtpServer;
  log?: (line: string) => void;
  /** Where the services' stop is also put, for a caller that gives up waiting to end them. */
  cleanups?: Array<() => Promise<unknown>>;
}): Promise<Report> {
  const log = world.log ?? (() => {});
  const config = loadConfig({ DATABASE_URL: world.databaseUrl, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
  const runtime = await openRuntime(config, createLogger('silent'));
  let cluster: Cluster | undefined;
  try {
    const people = await register(runtime);
    log('starting two copies of each service');
    cluster = await startCluster(
      {
        DATABASE_URL: world.databaseUrl,
        NATS_URL: world.natsUrl,
        SMTP_URL: world.smtp.url,
      },
      { cleanups: world.cleanups },
    );
    const load = new Load(cluster.proxy.url, people);
    log(`load through ${cluster.proxy.url}`);
    const running = load.run();
    const killed: string[] = [];
    const inFlight = new Set<string>();
    try {
      await sleep(PACE_MS.before);
      for (const kind of ['processes', 'command-api', 'read-api', 'projector'] satisfies Kind[]) {
        const victim = cluster.instances.find((instance) => instance.kind === kind)!;
        const kill = () => victim.process.kill();
        if (kind === 'processes')
          for (const id of await mailsInFlight(runtime.sql, world.smtp, kill)) inFlight.add(id);
        else await kill();
        killed.push(victim.name);
        log(`killed ${victim.name} with SIGKILL`);
        await sleep(PACE_MS.between);
      }
      await sleep(PACE_MS.after - PACE_MS.between);
    } finally {
      load.stop();
      await running;
    }
    log(`load done: ${load.requests} requests; waiting for the survivors to settle`);
    await settled(runtime, world.natsUrl);
    const gateway = cluster.proxy.stats;
    await cluster.stop();
    cluster = undefined;
    return {
      requests: load.requests,
      serverErrors: load.serverErrors,
      refusals: load.refusals,
      gateway: { retried: gateway.retried, failed: gateway.failed },
      killed,
      missingWrites: await missingWrites(runtime.sql, load.shifts),
      staleReads: load.staleReads,
      differingTables: await differingTables(runtime),
      mail: await mailOutcome(runtime.sql, world.smtp, inFlight, load.shifts),
      shifts: load.shifts.length,
      events: await countEventsAfter(runtime.sql, 0n, Number.MAX_SAFE_INTEGER),
    };
  } finally {
    await cluster?.stop();
    await runtime.close();
  }
}
