import type { ShiftType } from '../../api/types';

/** A completed-shift record as GET /api/completed-shifts answers (SPEC §3). */
export interface CompletedShift {
  id: string;
  originalShiftId: string | null;
  location: string;
  date: string;
  startTime: string;
  endTime: string;
  type: ShiftType;
  requirements: string | null;
  notes: string | null;
  assignedUserId: string | null;
  assignedUserName: string | null;
  createdById: string | null;
  shiftCompletedAt: string;
  loggedAt: string;
  /** Minutes, despite the name. */
  hoursWorked: number;
  reported: boolean;
  reportedAt: string | null;
}
