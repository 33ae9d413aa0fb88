/** A completed-shift record as GET /api/completed-shifts answers. */
export type { CompletedShiftView as CompletedShift } from '@shiftcover/domain';
