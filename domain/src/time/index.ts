export {
  easternInstant,
  easternTime,
  easternToday,
  type Interval,
  intervalsOverlap,
  isCalendarDate,
  nextDate,
  shiftInterval,
  TIME_ZONE,
} from './eastern';
export { durationHours, durationLabel, formatShiftDate, timeRangeLabel, toTwelveHour } from './labels';
