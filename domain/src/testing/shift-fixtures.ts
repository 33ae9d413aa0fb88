import type { ShiftEvent } from '../shift/events';
import { easternInstant } from '../time/eastern';

/** Test data for shift specifications: a shift on 2026-03-10, 08:00–16:00 at Maple House. */
export const SHIFT_ID = 'shift-1';
export const at = (date: string, time: string) => easternInstant(date, time);
export const before = at('2026-03-01', '09:00');
export const stamp = before.toISOString();

export const posted = (
  overrides: Partial<Extract<ShiftEvent, { type: 'ShiftPosted' }>['data']> = {},
): ShiftEvent => ({
  type: 'ShiftPosted',
  data: {
    shiftId: SHIFT_ID,
    location: 'Maple House',
    date: '2026-03-10',
    startTime: '08:00',
    endTime: '16:00',
    type: 'AM',
    priority: 'open',
    requirements: null,
    notes: null,
    requiredCredentials: [],
    createdById: 'admin-1',
    at: stamp,
    ...overrides,
  },
});

export const claimed = (userId = 'staff-1'): ShiftEvent => ({
  type: 'ShiftClaimed',
  data: { shiftId: SHIFT_ID, userId, at: stamp },
});
export const approved = (userId = 'staff-1'): ShiftEvent => ({
  type: 'ClaimApproved',
  data: { shiftId: SHIFT_ID, userId, at: stamp },
});
export const dropRequested = (userId = 'staff-1'): ShiftEvent => ({
  type: 'DropRequested',
  data: { shiftId: SHIFT_ID, userId, at: stamp },
});
export const transferRequested = (fromUserId = 'staff-1', toUserId = 'staff-2'): ShiftEvent => ({
  type: 'TransferRequested',
  data: { shiftId: SHIFT_ID, transferId: 't-1', fromUserId, toUserId, message: null, at: stamp },
});
