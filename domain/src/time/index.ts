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
  dateAfter,
  easternInstant,
  easternMidnight,
  easternTime,
  easternToday,
  formatEastern,
  formatInZone,
  type Interval,
  intervalsOverlap,
  isCalendarDate,
  nextDate,
  previousDate,
  shiftEndDate,
  shiftInterval,
  TIME_ZONE,
  zonedInstant,
} from './eastern';
export {
  type ClockReading,
  easternClock,
  easternDate,
  easternDateTime,
  easternDayTime,
  easternStamp,
  easternTimestamp,
  easternWeekdayTimestamp,
} from './formats';
export {
  durationLabel,
  formatShiftDate,
  shiftLabel,
  shiftTimeLabel,
  timeRangeLabel,
  toTwelveHour,
} from './labels';
export { lastAuditWeek, previousMonth, type ReportPeriod, WEEKLY_AUDIT_TIME } from './periods';
