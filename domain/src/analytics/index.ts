export {
  type CoverageShift,
  type CoverageWeek,
  coverageByWeek,
  type Drop,
  type Hold,
  holderAtStart,
  LATE_DROP_NOTICE_HOURS,
  mondayOf,
  percentile,
} from './coverage';
