export {
  easternInstant,
  easternTime,
  easternToday,
  type Interval,
  intervalsOverlap,
  isCalendarDate,
  nextDate,
  previousDate,
  shiftInterval,
  TIME_ZONE,
} from './eastern';
export { durationHours, durationLabel, formatShiftDate, timeRangeLabel, toTwelveHour } from './labels';
export { lastAuditWeek, previousMonth, type ReportPeriod, WEEKLY_AUDIT_TIME } from './periods';
