import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { subMonths } from 'date-fns/subMonths';
import { easternInstant, easternToday, formatInZone, TIME_ZONE } from './eastern';

export interface ReportPeriod {
  /** Names the period once: a scheduled report is sent once per key. */
  key: string;
  label: string;
  from: Date;
  until: Date;
}

/** The calendar month before `now`'s, Eastern time: the monthly report goes out on the 1st at 00:00. */
export function previousMonth(now: Date): ReportPeriod {
  const firstOfMonth = `${easternToday(now).slice(0, 7)}-01`;
  const first = format(subMonths(parseISO(firstOfMonth), 1), 'yyyy-MM-dd');
  return {
    key: first.slice(0, 7),
    label: format(parseISO(first), 'MMMM yyyy'),
    from: easternInstant(first, '00:00'),
    until: easternInstant(firstOfMonth, '00:00'),
  };
}

/** The weekly audit report's hour: Mondays at 07:00 Eastern time. */
export const WEEKLY_AUDIT_TIME = '07:00';

/** The 7 days up to the last Monday 07:00 Eastern at or before `now`, keyed by ISO week. */
export function lastAuditWeek(now: Date): ReportPeriod {
  const today = easternToday(now);
  const weekday = Number(formatInZone(now, TIME_ZONE, 'i'));
  let monday = format(addDays(parseISO(today), 1 - weekday), 'yyyy-MM-dd');
  if (easternInstant(monday, WEEKLY_AUDIT_TIME) > now)
    monday = format(addDays(parseISO(monday), -7), 'yyyy-MM-dd');
  const until = easternInstant(monday, WEEKLY_AUDIT_TIME);
  return {
    key: format(parseISO(monday), "RRRR-'W'II"),
    label: `the week to ${format(parseISO(monday), 'MMM d, yyyy')}`,
    from: easternInstant(format(addDays(parseISO(monday), -7), 'yyyy-MM-dd'), WEEKLY_AUDIT_TIME),
    until,
  };
}
