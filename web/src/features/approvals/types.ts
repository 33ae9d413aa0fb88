/** A claim awaiting approval with the claimant's name, and a drop request (its id is the shift's). */
export type { DropRequestView as DropRequest, PendingShiftView as PendingShift } from '@shiftcover/domain';
