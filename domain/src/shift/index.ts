export { decideShift, shiftDecider } from './decide';
export type { ShiftEvent, ShiftEventType, ShiftRefusal } from './events';
export {
  COMPLETION_DELAY_HOURS,
  claimableStatuses,
  DROP_NOTICE_HOURS,
  isClaimable,
  REMINDER_LEAD_HOURS,
  URGENT_REOPEN_HOURS,
} from './rules';
export { schedulingProblem } from './scheduling';
export {
  priorityLabels,
  ruleOverrideSchema,
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
