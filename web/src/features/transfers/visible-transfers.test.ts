import { describe, expect, it } from 'vitest';
import type { TransferRequest } from '../../api/types';
import { visibleTransfers } from './visible-transfers';

function request(
  id: string,
  direction: TransferRequest['direction'],
  status: TransferRequest['status'],
  requestedAt: string,
): TransferRequest {
  return {
    id,
    shiftId: `shift-${id}`,
    direction,
    status,
    message: null,
    requestedAt,
    respondedAt: null,
    shift: {
      id: `shift-${id}`,
      location: 'Oak Lodge',
      type: 'PM',
      date: '2026-03-10',
      startTime: '16:00',
      endTime: '00:00',
    },
    fromUser: { firstName: 'Sam', lastName: 'Patel', username: 'sam.patel' },
    toUser: { firstName: 'Alex', lastName: 'Rivera' },
  };
}

describe('transfer requests shown on My Shifts', () => {
  it('shows incoming requests unless withdrawn, and only pending outgoing ones', () => {
    const shown = visibleTransfers([
      request('in-pending', 'incoming', 'pending', '2026-03-01T10:00:00Z'),
      request('in-cancelled', 'incoming', 'cancelled', '2026-03-01T11:00:00Z'),
      request('in-accepted', 'incoming', 'accepted', '2026-03-01T12:00:00Z'),
      request('out-pending', 'outgoing', 'pending', '2026-03-01T09:00:00Z'),
      request('out-declined', 'outgoing', 'declined', '2026-03-01T13:00:00Z'),
    ]);
    expect(shown.map((t) => t.id)).toEqual(['in-pending', 'out-pending', 'in-accepted']);
  });
});
