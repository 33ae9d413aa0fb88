/** A claim awaiting approval with the claimant's name and rank, a drop request (its id is the shift's), and an alternative to a claim. */
export type {
  DropRequestView as DropRequest,
  PendingShiftView as PendingShift,
  ShiftAlternativeView as ShiftAlternative,
} from '@shiftcover/domain';
