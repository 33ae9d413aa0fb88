export { releasesAfter, reservationNeeded } from './policy';
export {
  conflictMessage,
  type Reservation,
  type ReserveTimeData,
  reserveTimeSchema,
  type ScheduleCommand,
  type ScheduleEvent,
  type ScheduleState,
  scheduleDecider,
} from './schedule';
