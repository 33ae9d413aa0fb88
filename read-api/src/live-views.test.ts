import { streams } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { describe, expect, it } from 'vitest';
import { affected } from './live';

const event = (type: string, userId: string): RecordedEvent => ({
  id: 'e-1',
  streamId: streams.schedule(userId),
  type,
  data: { userId },
  metadata: {
    commandId: 'c',
    correlationId: 'c',
    causationId: 'c',
    actorId: 'admin-1',
    actorRole: 'admin',
    actorSuperAdmin: false,
    schemaVersion: 1,
  },
  revision: 0n,
  position: 1n,
  recordedAt: new Date(),
});
const staff = (userId: string) => ({ userId, role: 'staff' as const, superAdmin: false });
const superAdmin = { userId: 'super-1', role: 'admin' as const, superAdmin: true };

describe('live notices of a person’s credentials and time off (docs/product.md §10)', () => {
  it('tell the person and the admins, and nobody else', () => {
    expect(affected(event('CredentialRecorded', 'staff-1'), staff('staff-1'))).toEqual(['credentials']);
    expect(affected(event('CredentialRecorded', 'staff-1'), staff('staff-2'))).toEqual([]);
    expect(affected(event('TimeOffRecorded', 'staff-1'), superAdmin)).toEqual(['time-off', 'audit-logs']);
    expect(affected(event('CredentialRecorded', 'staff-1'), superAdmin)).toEqual([
      'credentials',
      'pending',
      'audit-logs',
    ]);
    expect(affected(event('CredentialExpiryNoticed', 'staff-1'), staff('staff-1'))).toEqual([
      'credentials',
      'notifications',
    ]);
  });

  it('leave reservations out of the audit log', () => {
    expect(affected(event('TimeReserved', 'staff-1'), superAdmin)).toEqual([]);
  });
});
