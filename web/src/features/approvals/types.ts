import type { Shift, ShiftType } from '../../api/types';

/** A claim awaiting approval, with the claimant's name (SPEC §3 "Pending items"). */
export interface PendingShift extends Shift {
  staffName: { firstName: string; lastName: string; username: string | null };
}

/** SPEC §3 "Drop request view"; the id is the shift's. */
export interface DropRequest {
  id: string;
  shiftId: string;
  dropRequestedAt: string | null;
  staffName: { firstName: string; lastName: string; username: string | null };
  location: string;
  date: string;
  startTime: string;
  endTime: string;
  type: ShiftType;
  requirements: string | null;
  notes: string | null;
  assignedUserId: string;
}
