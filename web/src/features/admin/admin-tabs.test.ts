import { describe, expect, it } from 'vitest';
import { visibleAdminTabs } from './admin-tabs';

const labels = (role: 'admin' | 'developer' | 'staff', superAdmin = false) =>
  visibleAdminTabs({ userId: 'u1', role, superAdmin }).map((tab) => tab.label);

const everyAdmin = [
  'Pending Approvals',
  'Shift Management',
  'Drop Requests',
  'Shifts in Progress',
  'User Management',
  'Credentials & Rules',
  'Analytics',
];

describe('Management Tools tabs', () => {
  it('gives a plain admin the everyday tabs only', () => {
    expect(labels('admin')).toEqual(everyAdmin);
  });

  it('adds Residences, Completed Shifts and Audit Logs for a super admin', () => {
    expect(labels('admin', true)).toEqual([...everyAdmin, 'Residences', 'Completed Shifts', 'Audit Logs']);
  });

  it('adds Developer tools for a developer', () => {
    expect(labels('developer')).toEqual([
      ...everyAdmin,
      'Residences',
      'Completed Shifts',
      'Audit Logs',
      'Developer tools',
    ]);
  });

  it('starts on Pending Approvals', () => {
    expect(visibleAdminTabs({ userId: 'u1', role: 'admin', superAdmin: false })[0]?.value).toBe(
      'pending-approvals',
    );
  });

  it('shows nothing to staff', () => {
    expect(labels('staff')).toEqual([]);
  });
});
