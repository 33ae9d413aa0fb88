import { streams } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import { describe, expect, it } from 'vitest';
import { affected } from './live';

const event = (
  type: string,
  userId: string,
  streamId = streams.schedule(userId),
  data: Record<string, unknown> = { userId },
): RecordedEvent => ({
  id: 'e-1',
  streamId,
  type,
  data,
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
const admin = { userId: 'admin-1', role: 'admin' as const, superAdmin: false };
const shiftEvent = (type: string, data: Record<string, unknown>) =>
  event(type, '', streams.shift('shift-1'), { shiftId: 'shift-1', ...data });
/** Who of these people hears that their bell has news. */
const bells = (changed: RecordedEvent, people = [staff('staff-1'), staff('staff-2'), admin, superAdmin]) =>
  people.filter((who) => affected(changed, who).includes('notifications')).map((who) => who.userId);

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

describe('live notices of the bell (docs/architecture.md §6.3)', () => {
  it('go to the people a shift’s change gives a notification, and to nobody else', () => {
    expect(bells(shiftEvent('ClaimApproved', { userId: 'staff-1' }))).toEqual(['staff-1']);
    expect(bells(shiftEvent('TransferRequested', { fromUserId: 'staff-1', toUserId: 'staff-2' }))).toEqual([
      'staff-2',
    ]);
    expect(bells(shiftEvent('TransferAccepted', { fromUserId: 'staff-1', toUserId: 'staff-2' }))).toEqual([
      'staff-1',
    ]);
    // A claim is news for the admins' lists, not their bells; a posting is every staff member's.
    expect(bells(shiftEvent('ShiftClaimed', { userId: 'staff-1' }))).toEqual([]);
    expect(bells(shiftEvent('ShiftPosted', { priority: 'open' }))).toEqual(['staff-1', 'staff-2']);
    expect(bells(shiftEvent('ShiftPosted', { priority: 'open', testData: true }))).toEqual([]);
    expect(bells(shiftEvent('ShiftMarkedUrgent', { priority: 'urgent' }))).toEqual(['staff-1', 'staff-2']);
    expect(bells(shiftEvent('ShiftMarkedUrgent', { priority: 'urgent', escalated: true }))).toEqual([]);
    // A reopened shift is the admins' news.
    expect(bells(shiftEvent('HolderRemoved', { userId: 'staff-1' }))).toEqual(['admin-1', 'super-1']);
  });

  it('go to the people an escalation step told in the app', () => {
    const step = { hoursBeforeStart: 24, audience: 'eligible_staff', mark: null };
    const notices = [
      { userId: 'staff-1', channel: 'email' },
      { userId: 'staff-2', channel: 'in_app' },
    ];
    expect(bells(shiftEvent('ShiftEscalated', { opening: 1, step, notices }))).toEqual(['staff-2']);
  });

  it('go to everyone for an event whose data cannot be read for its recipients, rather than stop', () => {
    const unreadable = shiftEvent('ShiftEscalated', { opening: 1, step: null, notices: 'not a list' });
    expect(bells(unreadable)).toEqual(['staff-1', 'staff-2', 'admin-1', 'super-1']);
  });

  it('go to a person whose notifications were read, and to the admins of an expiring credential', () => {
    const read = event('NotificationsRead', 'staff-1', streams.inbox('staff-1'), {
      userId: 'staff-1',
      notificationIds: null,
    });
    expect(bells(read)).toEqual(['staff-1']);
    expect(bells(event('CredentialExpiryNoticed', 'staff-1'))).toEqual(['staff-1', 'admin-1', 'super-1']);
    expect(bells(event('CredentialRecorded', 'staff-1'))).toEqual([]);
  });
});

describe('live notices of a person’s schedule (My Shifts)', () => {
  const schedules = (changed: RecordedEvent) =>
    [staff('staff-1'), staff('staff-2'), staff('staff-3')]
      .filter((who) => affected(changed, who).includes('my-shifts'))
      .map((who) => who.userId);

  it('go to each person whose schedule the change moves', () => {
    expect(schedules(shiftEvent('ShiftAssigned', { userId: 'staff-1', previousUserId: 'staff-2' }))).toEqual([
      'staff-1',
      'staff-2',
    ]);
    expect(schedules(shiftEvent('ShiftExpired', { pendingUserId: 'staff-3' }))).toEqual(['staff-3']);
    expect(schedules(shiftEvent('ClaimApproved', { userId: 'staff-1' }))).toEqual(['staff-1']);
    expect(schedules(shiftEvent('ShiftPosted', { priority: 'open' }))).toEqual([]);
  });

  it('go to everyone for an edit, which does not name the shift’s holder', () => {
    expect(schedules(shiftEvent('ShiftUpdated', { date: '2026-12-24' }))).toEqual([
      'staff-1',
      'staff-2',
      'staff-3',
    ]);
  });
});
