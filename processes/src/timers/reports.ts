import { type Actor, lastAuditWeek, previousMonth } from '@shiftcover/domain';
import type { CommandTrace } from '@shiftcover/eventstore';
import { type ShiftTimerDeps, TIMERS } from './timer-deps';

export interface ReportRun {
  /** The report's id: one per month or week for the scheduled ones, so each is sent once. */
  operationId: string;
  actor: Actor;
  trace?: CommandTrace;
}

/**
 * Reports the completed shifts not yet reported (those completed before `before`, when given) to
 * the super admins; the records are then marked reported and archived.
 */
export async function reportCompletedShifts(
  deps: ShiftTimerDeps,
  run: ReportRun & { period: string; before?: Date },
): Promise<{ reported: number; sent: boolean }> {
  const now = deps.clock?.() ?? new Date();
  const rows = await deps.sql<{ id: string }[]>`
    select id from rm_completed_shifts where not archived
      ${run.before ? deps.sql`and shift_completed_at < ${run.before}` : deps.sql``}
    order by shift_completed_at, id`;
  const recordIds = rows.map((r) => r.id);
  const outcome = await deps.service.operation(
    run.operationId,
    { type: 'ReportCompletedShifts', data: { reportId: run.operationId, period: run.period, recordIds } },
    { actor: run.actor, now },
    run.trace ?? { commandId: `report:${run.operationId}` },
  );
  const sent = !outcome.duplicate && outcome.events.length > 0;
  return { reported: sent ? recordIds.length : 0, sent };
}

/** Sends the super admins how often each audited action happened between `from` and `until`. */
export async function sendAuditReport(
  deps: ShiftTimerDeps,
  run: ReportRun & { from: Date; until: Date },
): Promise<boolean> {
  const now = deps.clock?.() ?? new Date();
  const outcome = await deps.service.operation(
    run.operationId,
    {
      type: 'SendAuditReport',
      data: { reportId: run.operationId, from: run.from.toISOString(), until: run.until.toISOString() },
    },
    { actor: run.actor, now },
    run.trace ?? { commandId: `report:${run.operationId}` },
  );
  return !outcome.duplicate && outcome.events.length > 0;
}

/**
 * The scheduled reports: the monthly completed-shifts report from the 1st at 00:00 and the weekly
 * audit report from Monday 07:00, Eastern time. Keyed by month and ISO week, so a run missed
 * while the server was down is sent at the next sweep, once.
 */
export async function sendDueReports(deps: ShiftTimerDeps): Promise<string[]> {
  const now = deps.clock?.() ?? new Date();
  const month = previousMonth(now);
  const week = lastAuditWeek(now);
  const sent: string[] = [];
  const monthly = `monthly-report-${month.key}`;
  const { sent: monthlySent } = await reportCompletedShifts(deps, {
    operationId: monthly,
    actor: TIMERS,
    period: month.label,
    before: month.until,
  });
  if (monthlySent) sent.push(monthly);
  const weekly = `weekly-audit-${week.key}`;
  if (await sendAuditReport(deps, { operationId: weekly, actor: TIMERS, from: week.from, until: week.until }))
    sent.push(weekly);
  return sent;
}
