import { formatEastern, streams } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { csv } from '@shiftcover/platform';
import type { TransactionSql } from 'postgres';
import { queueMail } from './outbox';
import type { MailPlannerDeps } from './planner-deps';
import { addressesOf } from './recipients';
import { newShiftMail, shiftAt, shiftInfo } from './rules';
import { compose } from './templates';

const hours = (minutes: number) => (minutes / 60).toFixed(2);

interface CompletedRecord {
  date: string;
  start_time: string;
  end_time: string;
  type: string;
  location: string;
  staff: string;
  hours_worked: number;
  shift_completed_at: Date;
}

/** Sums minutes and counts shifts by a key, largest first. */
function totalsBy(records: CompletedRecord[], key: (r: CompletedRecord) => string): string[][] {
  const totals = new Map<string, { shifts: number; minutes: number }>();
  for (const r of records) {
    const total = totals.get(key(r)) ?? { shifts: 0, minutes: 0 };
    total.shifts += 1;
    total.minutes += r.hours_worked;
    totals.set(key(r), total);
  }
  return [...totals]
    .sort(([a, x], [b, y]) => y.minutes - x.minutes || a.localeCompare(b))
    .map(([name, t]) => [name, String(t.shifts), hours(t.minutes)]);
}

/** The completed-shifts report: hours per staff member and per residence, every shift in a CSV. */
async function completedShiftsReport(deps: MailPlannerDeps, tx: TransactionSql, event: RecordedEvent) {
  const { period, recordIds } = event.data as { period: string; recordIds: string[] };
  const records = await tx<CompletedRecord[]>`
    select c.date, c.start_time, c.end_time, c.type, c.location, c.hours_worked, c.shift_completed_at,
      case when c.assigned_user_id is null then 'Unassigned'
        else coalesce(u.first_name || ' ' || u.last_name, 'Deleted user') end as staff
    from rm_completed_shifts c left join rm_users u on u.id = c.assigned_user_id
    where c.id = any(${recordIds})
    order by c.date, c.start_time, c.location`;
  const total = records.reduce((sum, r) => sum + r.hours_worked, 0);
  const head = ['Name', 'Shifts', 'Hours'];
  const message = compose(
    'monthly_report',
    `Completed shifts report: ${period}`,
    [
      `${records.length} completed shifts, ${hours(total)} hours worked (${period}).`,
      'Hours per staff member',
      { head, rows: totalsBy(records, (r) => r.staff) },
      'Hours per residence',
      { head: ['Residence', 'Shifts', 'Hours'], rows: totalsBy(records, (r) => r.location) },
      'Every shift is in the attached CSV. These records are now marked reported and archived.',
    ],
    deps.publicUrl,
  );
  const content = csv([
    ['Date', 'Start', 'End', 'Type', 'Residence', 'Staff', 'Hours', 'Completed (Eastern)'],
    ...records.map((r) => [
      r.date,
      r.start_time,
      r.end_time,
      r.type,
      r.location,
      r.staff,
      hours(r.hours_worked),
      formatEastern(r.shift_completed_at, 'yyyy-MM-dd HH:mm'),
    ]),
  ]);
  const filename = `completed-shifts-${period.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv`;
  return { ...message, attachments: [{ filename, contentType: 'text/csv', content }] };
}

/** The audit report: how often each action happened in the period, by action. */
async function auditReport(deps: MailPlannerDeps, tx: TransactionSql, event: RecordedEvent) {
  const { from, until } = event.data as { from: string; until: string };
  const counts = await tx<{ action: string; count: number }[]>`
    select action, count(*)::int as count from rm_audit_logs
    where timestamp >= ${from} and timestamp < ${until}
    group by action order by count desc, action`;
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  const rows = counts.map((c) => [c.action, String(c.count)]);
  const message = compose(
    'audit_report',
    `Audit report: ${formatEastern(from, 'MMM d')} to ${formatEastern(until, 'MMM d, yyyy')}`,
    [
      `${total} recorded actions from ${formatEastern(from)} to ${formatEastern(until)} (Eastern time).`,
      rows.length ? { head: ['Action', 'Count'], rows } : 'Nothing was recorded in this period.',
    ],
    deps.publicUrl,
  );
  const content = csv([['Action', 'Count'], ...counts.map((c) => [c.action, c.count])]);
  const filename = `audit-report-${from.slice(0, 10)}.csv`;
  return { ...message, attachments: [{ filename, contentType: 'text/csv', content }] };
}

/** The sealed address (and what goes with it) an operation names; null once its owner was erased. */
async function addressed<P>(deps: MailPlannerDeps, event: RecordedEvent): Promise<P | null> {
  const [opened] = await deps.vault.open([event]);
  return (opened?.data.personal ?? null) as P | null;
}

/** Mails of the developer and admin calls and of the reports, recorded on `operation-` streams. */
export async function planOperationMails(
  deps: MailPlannerDeps,
  tx: TransactionSql,
  event: RecordedEvent,
): Promise<number> {
  const d = event.data as { [key: string]: unknown };
  switch (event.type) {
    case 'TestEmailSent': {
      const personal = await addressed<{ email: string; subject: string; message: string }>(deps, event);
      if (!personal) return 0;
      const message = compose('test_email', personal.subject, [personal.message], deps.publicUrl);
      return queueMail(deps, tx, event.id, [personal.email], message);
    }
    case 'EmailDiagnosticRun': {
      const personal = await addressed<{ email: string }>(deps, event);
      if (!personal) return 0;
      const message = compose(
        'diagnostic',
        'Shift Coverage e-mail diagnostic',
        [
          'This message confirms that Shift Coverage can send e-mail to this address.',
          d.smtpConfigured
            ? `SMTP server: ${d.answer}`
            : 'No SMTP server is configured: this message is kept in the outbox.',
          `Run at ${formatEastern(String(d.at))} (Eastern time).`,
        ],
        deps.publicUrl,
      );
      return queueMail(deps, tx, event.id, [personal.email], message);
    }
    case 'ShiftNotificationResent': {
      const shift = await shiftAt(deps.store, streams.shift(String(d.shiftId)));
      if (!shift.exists) return 0;
      const recipients = await addressesOf(tx, { userIds: d.recipients as string[] });
      return queueMail(deps, tx, event.id, recipients, newShiftMail(shiftInfo(shift), deps.publicUrl));
    }
    case 'CompletedShiftsReported':
      return queueMail(
        deps,
        tx,
        event.id,
        await addressesOf(tx, 'super-admins'),
        await completedShiftsReport(deps, tx, event),
      );
    case 'AuditReportSent':
      return queueMail(
        deps,
        tx,
        event.id,
        await addressesOf(tx, 'super-admins'),
        await auditReport(deps, tx, event),
      );
    default:
      return 0;
  }
}
