/** A completed-shift record as GET /api/completed-shifts answers (SPEC §3). */
export type { CompletedShiftView as CompletedShift } from '@shiftcover/domain';
