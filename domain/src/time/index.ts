export {
  existsInEastern,
  missingTimeMessage,
  occursTwiceInEastern,
  quarterHours,
  repeatedTimeHint,
  shiftHours,
  shiftMinutes,
} from './duration';
export {
  easternInstant,
  easternTime,
  easternToday,
  type Interval,
  intervalsOverlap,
  isCalendarDate,
  nextDate,
  previousDate,
  shiftEndDate,
  shiftInterval,
  TIME_ZONE,
} from './eastern';
export { durationLabel, formatShiftDate, timeRangeLabel, toTwelveHour } from './labels';
export { lastAuditWeek, previousMonth, type ReportPeriod, WEEKLY_AUDIT_TIME } from './periods';
