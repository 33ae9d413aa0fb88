export {
  COMPLETION_DELAY_HOURS,
  DROP_NOTICE_HOURS,
  decideShift,
  REMINDER_LEAD_HOURS,
  shiftDecider,
  URGENT_REOPEN_HOURS,
} from './decide';
export type { ShiftEvent, ShiftEventType } from './events';
export { claimableStatuses, isClaimable } from './rules';
export { schedulingProblem } from './scheduling';
export {
  priorityLabels,
  type ShiftCommand,
  type ShiftCommandType,
  type ShiftDetails,
  type ShiftPriority,
  type ShiftType,
  shiftCommandSchema,
  shiftDetailsSchema,
  shiftPresets,
  shiftPriorities,
  shiftTypes,
} from './schemas';
export {
  evolveShift,
  initialShiftState,
  pendingTransfer,
  type ShiftState,
  type ShiftStatus,
  type ShiftTransfer,
} from './state';
