import { auditLogProjection } from './read-models/audit-log';
import { calendarFeedsProjection } from './read-models/calendar-feeds';
import { completedShiftsProjection } from './read-models/completed-shifts';
import { configProjection } from './read-models/config';
import { coverageProjection } from './read-models/coverage';
import { credentialsProjection } from './read-models/credentials';
import { notificationsProjection } from './read-models/notifications';
import { outreachProjection } from './read-models/outreach';
import { residencesProjection } from './read-models/residences';
import { shiftsProjection } from './read-models/shifts';
import { usersProjection } from './read-models/users';

export { CHECKPOINT_CHANNEL, type Checkpoint, checkpointNotice, projectionMigrations } from './checkpoints';
export {
  applyOrSetAside,
  type EventConsumer,
  errorText,
  type Failure,
  isTransient,
  listParkedEvents,
  type ParkedEvent,
  ParkedEventNotFound,
  ParkedEventUnavailable,
  park,
  parkedEventCounts,
  type RetryOutcome,
  retryParkedEvent,
  skipParkedEvent,
} from './parking';
export { type Projection, physicalTable, readTable } from './projection';
export {
  applyNextBatch,
  applyNextBatchTogether,
  install,
  type ProjectorDeps,
  projectionConsumer,
  REBUILD_BATCH,
  type RebuildProgress,
  readCheckpoint,
  readCheckpoints,
  readCheckpointsOf,
  rebuild,
  type TogetherOutcome,
} from './projector';
export { auditDetails } from './read-models/audit-log';
export { type NoticeRecipients, noticeRecipients } from './read-models/notifications';
export type { ShiftLadderRow } from './read-models/outreach';
export { adminsOfResidence } from './read-models/residence-admins';
export { ProjectionRunner, type RunnerOptions } from './runner';

/** Every read model, each following the log on its own checkpoint. */
export const projections = [
  shiftsProjection,
  usersProjection,
  residencesProjection,
  completedShiftsProjection,
  auditLogProjection,
  notificationsProjection,
  configProjection,
  credentialsProjection,
  calendarFeedsProjection,
  outreachProjection,
  coverageProjection,
];
