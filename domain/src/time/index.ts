export {
  easternInstant,
  easternTime,
  easternToday,
  type Interval,
  intervalsOverlap,
  nextDate,
  shiftInterval,
  TIME_ZONE,
} from './eastern';
export { durationHours, durationLabel, formatShiftDate, timeRangeLabel, toTwelveHour } from './labels';
