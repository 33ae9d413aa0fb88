import { describe, expect, it } from 'vitest';
import type { Priority } from '../../api/types';
import { aShift } from '../admin/shift-fixture';
import { byQueueOrder, byUrgencyThenTime, decidedShift } from './claim-decision';

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

describe('claims for the same slot', () => {
  it('sit side by side, best ranked first, within the urgency and time order', () => {
    const claim = (id: string, location: string, rank: number, priority: Priority = 'open') => ({
      id,
      location,
      rank,
      priority,
      date: '2026-03-02',
      startTime: '08:00',
      endTime: '16:00',
    });
    const claims = [
      claim('maple-2', 'Maple House', 2),
      claim('oak-1', 'Oak House', 1),
      claim('maple-1', 'Maple House', 1),
      claim('oak-urgent', 'Oak House', 1, 'urgent'),
    ];
    expect([...claims].sort(byQueueOrder).map((c) => c.id)).toEqual([
      'oak-urgent',
      'maple-1',
      'maple-2',
      'oak-1',
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
