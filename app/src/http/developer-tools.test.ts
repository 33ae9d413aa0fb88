import { createCommandService } from '@shiftcover/command-api';
import { easternInstant } from '@shiftcover/domain';
import { settleDueShifts } from '@shiftcover/processes';
import { Positions } from '@shiftcover/read-api';
import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer } from '../testing/http';
import { aShiftForm } from '../testing/shift-form';

const server = perFile(() => startTestServer({ clock: () => clock }));
let developer: Client & { userId: string };
let superAdmin: Client & { userId: string };
let clock = easternInstant('2026-03-01', '09:00');

beforeAll(async () => {
  developer = await server.signedIn('developer');
  superAdmin = await server.signedIn('admin', { superAdmin: true });
});

const eventsOfType = async (type: string) =>
  server.runtime.sql<{ data: Record<string, unknown>; stream_id: string }[]>`
    select data, stream_id from events where type = ${type} order by position`;

/** Plans the mails of everything recorded after `after` into the outbox (no SMTP in these tests). */
async function planFrom(after: bigint) {
  await server.runtime
    .sql`insert into process_checkpoints (name, position) values ('email', ${after.toString()})
    on conflict (name) do update set position = excluded.position`;
  await server.planMail();
}

async function postShift(date: string) {
  const reply = await developer.post('/api/shifts', aShiftForm({ date }));
  return reply.body.id as string;
}

describe('developer and admin calls of docs/product.md §7', () => {
  it('answer bad input with the product guide’s messages', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/api/test-email', { email: 'ops@example.org', subject: '' }, 'All fields are required'],
      ['/api/test-email', undefined, 'All fields are required'],
      ['/api/email-diagnostic', {}, 'Email address is required for diagnostic'],
      ['/api/email-diagnostic', { email: 'not an address' }, 'Invalid email format'],
      ['/api/bulk-test-emails', { count: 51 }, 'Count must be between 1 and 50'],
      ['/api/bulk-test-emails', { count: 'many' }, 'Count must be between 1 and 50'],
      [
        `/api/admin/resend-shift-notification/${await postShift('2026-03-20')}`,
        { recipients: [] },
        'No Recipients Selected',
      ],
    ];
    for (const [path, body, message] of cases) {
      const reply = await developer.post(path, body);
      expect([path, reply.status, reply.body.message]).toEqual([path, 400, message]);
    }
    const unknown = await developer.post('/api/admin/resend-shift-notification/nope', { recipients: ['x'] });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Shift not found']);
  });

  it('a test e-mail and a diagnostic are recorded and kept in the outbox when no SMTP server is set', async () => {
    const before = await server.runtime.store.headPosition();
    const sent = await developer.post('/api/test-email', {
      email: 'ops@example.org',
      subject: 'Hello',
      message: 'Is mail working?',
    });
    expect(sent.body.message).toBe(
      'Test e-mail to ops@example.org kept in the outbox (no SMTP server is configured)',
    );
    const diagnostic = await developer.post('/api/email-diagnostic', { email: 'ops@example.org' });
    expect(diagnostic.status).toBe(200);
    expect(diagnostic.body).toMatchObject({ smtpConfigured: false, ok: true });
    expect(diagnostic.body.message).toContain('No SMTP server is configured');
    await planFrom(before);
    const outbox = await developer.get('/api/email-outbox?status=outbox');
    const mails = (outbox.body as unknown as Array<{ to: string; subject: string; text: string }>).map(
      (m) => `${m.to} | ${m.subject}`,
    );
    expect(mails).toEqual(['ops@example.org | Shift Coverage e-mail diagnostic', 'ops@example.org | Hello']);
    const audit = await developer.get('/api/audit-logs?action=system_enhancement');
    const descriptions = (audit.body.logs as Array<{ description: string; userId: string }>).map(
      (l) => l.description,
    );
    expect(descriptions).toEqual(
      expect.arrayContaining([
        'Sent a test e-mail',
        'Ran the e-mail diagnostic: no SMTP server is configured',
      ]),
    );
    // The address typed in is kept sealed in the log and out of the audit trail.
    const recorded = [
      ...(await eventsOfType('TestEmailSent')),
      ...(await eventsOfType('EmailDiagnosticRun')),
    ];
    expect(recorded).toHaveLength(2);
    expect(JSON.stringify(recorded)).not.toContain('ops@example.org');
    expect(JSON.stringify(audit.body)).not.toContain('ops@example.org');
  });

  it('the bulk test creates test shifts, mails them to the developer only, and cleans them up', async () => {
    const before = await server.runtime.store.headPosition();
    const staff = await server.signedIn('staff');
    const reply = await developer.post('/api/bulk-test-emails', { count: 3 });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ shiftsCreated: 3, emailsQueued: 3 });
    const posted = (await eventsOfType('ShiftPosted')).filter((e) => e.data.testData);
    const deleted = (await eventsOfType('ShiftDeleted')).filter((e) => e.data.testData);
    expect(posted).toHaveLength(3);
    expect(deleted.map((e) => e.stream_id).sort()).toEqual(posted.map((e) => e.stream_id).sort());
    const shifts = await staff.get('/api/shifts?status=all');
    expect(JSON.stringify(shifts.body)).not.toContain('E-mail bulk test');
    await planFrom(before);
    const [planned] = await server.runtime.sql<{ recipients: string[]; n: number }[]>`
      select array_agg(distinct recipient) as recipients, count(*)::int as n from email_deliveries
      where subject like '[Test] New shift available: E-mail bulk test%'`;
    expect(planned).toEqual({ recipients: [`developer-${developer.userId.slice(0, 8)}@example.org`], n: 3 });
    const notifications = await staff.get('/api/notifications');
    expect(JSON.stringify(notifications.body)).not.toContain('E-mail bulk test');
    const audit = await developer.get('/api/audit-logs?action=shift_created');
    expect(JSON.stringify(audit.body)).not.toContain('E-mail bulk test');
  });

  it('resends the new-shift e-mail to the chosen recipients only', async () => {
    const shiftId = await postShift('2026-03-21');
    const chosen = await server.signedIn('staff');
    await server.signedIn('staff');
    const before = await server.runtime.store.headPosition();
    const reply = await superAdmin.post(`/api/admin/resend-shift-notification/${shiftId}`, {
      recipients: [chosen.userId],
    });
    expect(reply.body.message).toBe('New-shift e-mail sent again to 1 recipient');
    await planFrom(before);
    const rows = await server.runtime.sql`select recipient, subject from email_deliveries where event_id in (
      select event_id::text from events where type = 'ShiftNotificationResent')`;
    expect(rows.map((r) => `${r.recipient} | ${r.subject}`)).toEqual([
      `staff-${chosen.userId.slice(0, 8)}@example.org | New shift available: Maple House, 2026-03-21`,
    ]);
  });

  it('clears queued and failed mails, and says how many', async () => {
    await server.runtime.sql`update email_deliveries set status = 'queued' where id in (
      select id from email_deliveries order by id limit 2)`;
    const reply = await developer.post('/api/email-queue/clear');
    expect(reply.body).toMatchObject({ clearedCount: 2, message: 'Cleared 2 e-mails from the queue' });
    const status = await developer.get('/api/email-queue/status');
    expect(status.body.pending).toBe(0);
  });

  it('the manual report archives the completed records; Clear All archives the rest', async () => {
    const service = createCommandService(server.runtime.handler, server.runtime.vault);
    const positions = new Positions(server.runtime.sql);
    const staff = await server.signedIn('staff');
    const held = [];
    for (const date of ['2026-03-10', '2026-03-11', '2026-03-12']) {
      const id = await postShift(date);
      await staff.post(`/api/shifts/${id}/claim`);
      await developer.post(`/api/shifts/${id}/approve`);
      held.push(id);
    }
    const complete = async (at: Date) => {
      clock = at;
      await positions.waitFor(await server.runtime.store.headPosition(), ['shifts']);
      await settleDueShifts({ sql: server.runtime.sql, service, clock: () => clock });
      await positions.waitFor(await server.runtime.store.headPosition(), ['completed_shifts']);
    };
    await complete(easternInstant('2026-03-11', '17:00'));
    const report = await superAdmin.post('/api/completed-shifts/manual-report');
    expect(report.body.message).toBe(
      'Report of 2 completed shifts sent to all super admins; the records are archived',
    );
    expect((await superAdmin.get('/api/completed-shifts')).body).toEqual([]);

    await complete(easternInstant('2026-03-12', '17:00'));
    expect(((await superAdmin.get('/api/completed-shifts')).body as unknown as unknown[]).length).toBe(1);
    const cleared = await developer.post('/api/completed-shifts/clear');
    expect(cleared.body).toMatchObject({ clearedCount: 1 });
    expect((await superAdmin.get('/api/completed-shifts')).body).toEqual([]);
    const audit = await developer.get('/api/audit-logs?entityType=report');
    expect((audit.body.logs as Array<{ action: string }>).map((l) => l.action).sort()).toEqual([
      'manual_report_sent',
      'system_enhancement',
    ]);
  });

  it('lists parked events and retries one through its process', async () => {
    const before = await server.runtime.store.headPosition();
    await developer.post('/api/test-email', {
      email: 'late@example.org',
      subject: 'Parked',
      message: 'Retried',
    });
    const [event] = await server.runtime.store.readAll(before, 1);
    await server.runtime.sql`insert into process_checkpoints (name, position) values ('email', 0)
      on conflict (name) do update set position = 0`;
    await server.runtime
      .sql`insert into parked_events (consumer, event_id, position, stream_id, event_type, error)
      values ('email', ${event!.id}, ${event!.position.toString()}, ${event!.streamId}, ${event!.type}, 'SMTP down')`;
    const parked = await developer.get('/api/parked-events');
    expect(parked.body).toEqual([expect.objectContaining({ id: `email:${event!.id}`, error: 'SMTP down' })]);
    const retry = await developer.post(`/api/parked-events/email:${event!.id}/retry`);
    expect([retry.status, retry.body.message]).toEqual([200, 'Applied TestEmailSent for email']);
    expect((await developer.get('/api/parked-events')).body).toEqual([]);
    const [mail] = await server.runtime
      .sql`select recipient from email_deliveries where event_id = ${event!.id}`;
    expect(mail!.recipient).toBe('late@example.org');
    expect((await developer.post(`/api/parked-events/email:${event!.id}/retry`)).status).toBe(404);
  });
});
