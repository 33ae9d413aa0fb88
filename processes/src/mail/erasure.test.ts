import { connect, migrate } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import { projectionMigrations } from '@shiftcover/projections';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv } from './csv';
import { eraseFromMail } from './erasure';
import { mailMigrations } from './migrations';
import { queueMail } from './outbox';
import { compose } from './templates';

let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url, { max: 2 });
  // Mail's migrations move what was parked into the projections' table of parked events.
  await migrate(sql, 'projections', projectionMigrations);
  await migrate(sql, 'mail', mailMigrations);
});
afterAll(async () => {
  await sql?.end();
  await db?.drop();
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
  await sql.begin((tx) =>
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
    await eraseFromMail(sql)({ subjectId: 'u-rory', personal: person });
    const rows = await sql<{ recipient: string; text: string }[]>`
      select recipient, e::text as text from email_deliveries e order by id`;
    expect(rows.map((r) => r.recipient)).toEqual(['sue@example.org', 'sue@example.org']);
    const all = rows.map((r) => r.text).join('\n');
    expect(all).not.toMatch(/rory|shaughnessy/i);
    expect(all).toContain('Report for Deleted user');
    expect(all).toContain('Sam Patel (Deleted user)');
  });

  it('does nothing for a person whose data is already gone', async () => {
    await eraseFromMail(sql)({ subjectId: 'u-gone', personal: null });
  });
});
