/** A claim awaiting approval, with the claimant's name (SPEC §3 "Pending items"). */
/** SPEC §3 "Drop request view"; the id is the shift's. */
export type { DropRequestView as DropRequest, PendingShiftView as PendingShift } from '@shiftcover/domain';
