import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchNatsServer } from '@shiftcover/platform';
import { startEmbeddedPostgres } from '@shiftcover/platform/embedded';
import { startSmtpServer } from '@shiftcover/testing';
import { type Report, runScenario } from './scenario';

/**
 * `npm run multi`: the scenario of `multi.test.ts` on throwaway servers of its own, told as it
 * goes, with its figures at the end; the exit code is 1 when a check fails.
 */
const root = await mkdtemp(path.join(tmpdir(), 'shiftcover-multi-'));
// As root, PostgreSQL runs as the `postgres` user, which must be able to enter the folder.
await chmod(root, 0o755);
const stops: Array<() => Promise<unknown>> = [() => rm(root, { recursive: true, force: true })];
let report: Report | undefined;
try {
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(root, 'postgres'), ephemeral: true });
  stops.push(() => postgres.stop());
  const nats = await launchNatsServer({ storeDir: path.join(root, 'nats') });
  stops.push(() => nats.stop());
  const smtp = await startSmtpServer();
  stops.push(() => smtp.close());
  console.log(`PostgreSQL on port ${postgres.port}, ${nats.url}, ${smtp.url}`);
  report = await runScenario({
    databaseUrl: postgres.url,
    natsUrl: nats.url,
    smtp,
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(report, null, 2));
} finally {
  for (const stop of stops.reverse()) await stop();
}
const failed =
  !report ||
  report.serverErrors.length > report.gateway.failed.length ||
  [
    report.refusals,
    report.missingWrites,
    report.differingTables,
    report.mail.lost,
    report.mail.unexplainedCopies,
    report.mail.unconfirmed,
  ].some((problems) => problems.length > 0) ||
  report.staleReads > 0;
console.log(failed ? 'A check failed.' : 'Every check held.');
process.exit(failed ? 1 : 0);
