import type { Shift } from '../../api/types';

/** A shift for tests: an open Maple House AM shift, with whatever a test changes. */
export function aShift(changes: Partial<Shift> = {}): Shift {
  return {
    id: 's1',
    location: 'Maple House',
    date: '2026-03-05',
    startTime: '08:00',
    endTime: '16:00',
    type: 'AM',
    requirements: null,
    requiredCredentials: [],
    notes: null,
    status: 'open',
    priority: 'open',
    assignedUserId: null,
    assignedUser: null,
    createdById: null,
    needsApproval: false,
    approved: false,
    dropRequested: false,
    dropRequestedAt: null,
    dropApproved: false,
    transferRequested: false,
    createdAt: '2026-03-01T00:00:00Z',
    updatedAt: '2026-03-01T00:00:00Z',
    ...changes,
  };
}
