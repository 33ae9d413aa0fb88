export { decideShift, shiftDecider } from './decide';
export type { ShiftEvent, ShiftEventType } from './events';
export { COMPLETION_DELAY_HOURS, DROP_NOTICE_HOURS, REMINDER_LEAD_HOURS, URGENT_REOPEN_HOURS } from './rules';
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
  isClaimable,
  pendingTransfer,
  type ShiftState,
  type ShiftStatus,
  type ShiftTransfer,
} from './state';
