import { createTestDatabase, startNatsServer } from '@shiftcover/platform/testing';
import { startSmtpServer } from '@shiftcover/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runScenario } from './scenario';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('two copies of every service, one of each killed with SIGKILL under load', () => {
  it('answers every request, keeps every acknowledged write, projects as a rebuild would and mails each mail once', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());
    const nats = await startNatsServer();
    cleanups.push(() => nats.stop());
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());

    const report = await runScenario({ databaseUrl: db.url, natsUrl: nats.url, smtp, cleanups });

    expect(report.killed).toEqual(['processes-1', 'command-api-1', 'read-api-1', 'projector-1']);
    expect(report.shifts).toBeGreaterThan(10);
    // A request cut off while a killed copy answered it is the only 5xx there may be.
    expect(report.serverErrors.length).toBeLessThanOrEqual(report.gateway.failed.length);
    expect(report.gateway.failed.length).toBeLessThanOrEqual(2);
    expect(report.refusals).toEqual([]);
    expect(report.missingWrites).toEqual([]);
    expect(report.staleReads).toBe(0);
    expect(report.differingTables).toEqual([]);
    expect(report.mail.planned).toBeGreaterThan(report.shifts);
    expect(report.mail.lost).toEqual([]);
    expect(report.mail.unexplainedCopies).toEqual([]);
    expect(report.mail.unconfirmed).toEqual([]);
  }, 180_000);
});
