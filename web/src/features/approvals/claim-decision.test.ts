import { describe, expect, it } from 'vitest';
import { aShift } from '../admin/shift-fixture';
import { byUrgencyThenTime, decidedShift } from './claim-decision';

const pending = aShift({
  status: 'pending',
  priority: 'urgent',
  assignedUserId: 'u1',
  assignedUser: { id: 'u1', firstName: 'Alex', lastName: 'Rivera' },
  needsApproval: true,
});

describe('pending approvals order', () => {
  it('puts emergency before urgent before normal, then earlier dates and start times first', () => {
    const shifts = [
      { id: 'normal-early', priority: 'open', date: '2026-03-01', startTime: '08:00' },
      { id: 'urgent-late', priority: 'urgent', date: '2026-03-09', startTime: '08:00' },
      { id: 'emergency', priority: 'emergency', date: '2026-03-10', startTime: '16:00' },
      { id: 'urgent-early-pm', priority: 'urgent', date: '2026-03-02', startTime: '16:00' },
      { id: 'urgent-early-am', priority: 'urgent', date: '2026-03-02', startTime: '08:00' },
    ] as const;
    expect([...shifts].sort(byUrgencyThenTime).map((s) => s.id)).toEqual([
      'emergency',
      'urgent-early-am',
      'urgent-early-pm',
      'urgent-late',
      'normal-early',
    ]);
  });
});

describe('a claim decision shown before the server answers', () => {
  it('approval keeps the holder and marks the shift approved', () => {
    expect(decidedShift(pending, 'approve')).toMatchObject({
      status: 'approved',
      assignedUserId: 'u1',
      needsApproval: false,
      approved: true,
    });
  });

  it('denial reopens the shift at its own priority with no holder', () => {
    expect(decidedShift(pending, 'deny')).toMatchObject({
      status: 'urgent',
      assignedUserId: null,
      assignedUser: null,
      needsApproval: false,
      approved: false,
    });
  });
});
