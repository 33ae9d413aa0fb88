import { csv, migrate } from '@shiftcover/platform';
import { projectionMigrations } from '@shiftcover/projections';
import { openBench, perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { eraseFromMail } from './erasure';
import { mailMigrations } from './migrations';
import { queueMail } from './outbox';
import { compose } from './templates';

const bench = perFile(() => openBench(2));

beforeAll(async () => {
  // Mail's migrations move what was parked into the projections' table of parked events.
  await migrate(bench.sql, 'projections', projectionMigrations);
  await migrate(bench.sql, 'mail', mailMigrations);
});

const person = {
  username: 'rory.o',
  firstName: 'Rory',
  lastName: "O'Shaughnessy",
  email: 'rory@example.org',
  notificationEmail: 'Rory.Alerts@example.org',
};

async function queue(eventId: string, recipients: string[], names: string) {
  const message = compose(
    'monthly_report',
    `Report for ${names}`,
    [`Hours per staff member: ${names}`],
    'https://x',
  );
  await bench.sql.begin((tx) =>
    queueMail({ smtpConfigured: false }, tx, eventId, recipients, {
      ...message,
      attachments: [{ filename: 'r.csv', contentType: 'text/csv', content: csv([['Staff'], [names]]) }],
    }),
  );
}

describe('erasing a person from mail', () => {
  it('deletes what was sent to their addresses and writes "Deleted user" where others’ mail names them', async () => {
    await queue(
      'e1',
      ['rory@example.org', 'rory.alerts@example.org', 'sue@example.org'],
      "Rory O'Shaughnessy",
    );
    await queue('e2', ['sue@example.org'], 'Sam Patel (rory.o)');
    await eraseFromMail(bench.sql)({ subjectId: 'u-rory', personal: person });
    const rows = await bench.sql<{ recipient: string; text: string }[]>`
      select recipient, e::text as text from email_deliveries e order by id`;
    expect(rows.map((r) => r.recipient)).toEqual(['sue@example.org', 'sue@example.org']);
    const all = rows.map((r) => r.text).join('\n');
    expect(all).not.toMatch(/rory|shaughnessy/i);
    expect(all).toContain('Report for Deleted user');
    expect(all).toContain('Sam Patel (Deleted user)');
  });

  it('does nothing for a person whose data is already gone', async () => {
    await eraseFromMail(bench.sql)({ subjectId: 'u-gone', personal: null });
  });
});
