import { describe, expect, it } from 'vitest';
import { ApiError, OFFLINE } from '../../api/client';
import { offlineMessage } from '../../api/offline';
import { aShift } from '../admin/shift-fixture';
import { claimedShift, claimFailureToast } from './claim';

describe('claiming a shift', () => {
  it('shows the shift as the user’s, pending approval, before the server answers', () => {
    const claimed = claimedShift(aShift({ status: 'urgent', priority: 'urgent' }), {
      id: 'u1',
      firstName: 'Alex',
      lastName: 'Rivera',
    });
    expect(claimed).toMatchObject({
      status: 'pending',
      priority: 'urgent',
      assignedUserId: 'u1',
      assignedUser: { id: 'u1', firstName: 'Alex', lastName: 'Rivera' },
      needsApproval: true,
      approved: false,
    });
  });

  it('explains a scheduling conflict with the text after the colon, for 8 seconds', () => {
    const error = new Error(
      'Scheduling conflict: You already have a shift scheduled at this time (Oak Lodge). {"conflicts":[{"id":"s2"}],"errorType":"shift_conflict"}',
    );
    expect(claimFailureToast(error)).toEqual({
      title: 'Scheduling Conflict',
      description: 'You already have a shift scheduled at this time (Oak Lodge).',
      variant: 'destructive',
      durationMs: 8000,
    });
  });

  it('falls back to the product guide’s texts', () => {
    expect(claimFailureToast(new Error('Scheduling conflict')).description).toBe(
      'You already have a shift scheduled at this time.',
    );
    expect(claimFailureToast(new Error('This shift is no longer available'))).toMatchObject({
      title: 'Error',
      description: 'This shift is no longer available',
      durationMs: 8000,
    });
    expect(claimFailureToast(undefined)).toMatchObject({
      title: 'Error',
      description: 'Failed to claim shift',
    });
  });

  it('says the claim needs a connection when the device is offline', () => {
    const error = new ApiError(0, offlineMessage('POST', '/api/shifts/s1/claim'), OFFLINE);
    expect(claimFailureToast(error)).toEqual({
      title: 'Offline',
      description: 'You are offline. Claiming a shift needs a connection.',
      variant: 'destructive',
      durationMs: 8000,
    });
  });
});
