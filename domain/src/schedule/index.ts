export { releasesAfter, reservationFor, reservationNeeded } from './policy';
export {
  CREDENTIAL_NOTICE_DAYS,
  conflictMessage,
  type NoticeDays,
  noticeDue,
  overlapping,
  type RecordedOverride,
  type Reservation,
  type ReserveTimeData,
  type RuleOverride,
  reserveTimeSchema,
  type ScheduleCommand,
  type ScheduleEvent,
  type ScheduleState,
  scheduleDecider,
} from './schedule';
