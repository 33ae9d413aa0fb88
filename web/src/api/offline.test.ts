import { describe, expect, it } from 'vitest';
import { isOfflineRead } from '../service-worker/contract';
import { offlineMessage } from './offline';

describe('what an action needs the connection for', () => {
  it.each([
    ['POST', '/api/shifts/s1/claim', 'You are offline. Claiming a shift needs a connection.'],
    ['POST', '/api/shifts/s1/request-drop', 'You are offline. Requesting a drop needs a connection.'],
    ['POST', '/api/shifts/s1/transfer-request', 'You are offline. Requesting a transfer needs a connection.'],
    [
      'PATCH',
      '/api/transfer-requests/t1',
      'You are offline. Answering a transfer request needs a connection.',
    ],
    [
      'DELETE',
      '/api/transfer-requests/t1',
      'You are offline. Cancelling a transfer request needs a connection.',
    ],
    ['POST', '/api/auth/login', 'You are offline. Signing in needs a connection.'],
  ])('names %s %s in the user’s words', (method, path, message) => {
    expect(offlineMessage(method, path)).toBe(message);
  });

  it('falls back to saving a change for other writes, and loading for reads', () => {
    expect(offlineMessage('PUT', '/api/shifts/s1')).toBe(
      'You are offline. Saving a change needs a connection.',
    );
    expect(offlineMessage('GET', '/api/shifts?status=open')).toBe(
      'You are offline. Loading this needs a connection.',
    );
  });
});

describe('the reads kept for offline reading', () => {
  it.each([
    '/api/auth/user',
    '/api/my-shifts',
    '/api/transfer-requests',
    '/api/my-time-off',
    '/api/users/u1/credentials',
    '/api/notifications',
  ])('include %s, which My Shifts and its header show', (path) => {
    expect(isOfflineRead(path)).toBe(true);
  });

  it.each(['/api/live', '/api/shifts', '/api/users', '/api/users/u1/time-off', '/api/audit-logs', '/'])(
    'leave out %s',
    (path) => {
      expect(isOfflineRead(path)).toBe(false);
    },
  );
});
