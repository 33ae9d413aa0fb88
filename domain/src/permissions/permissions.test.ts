import { describe, expect, it } from 'vitest';
import {
  assignableRoles,
  type Capability,
  can,
  canAssignResidence,
  canChangeRole,
  canCreateUser,
  canDeleteUser,
  canEditUser,
  canResetPassword,
  isAssignable,
  isTransferRecipient,
  type Principal,
} from './permissions';
import { refusalFor, requireActorCan } from './refusals';

const staff: Principal = { userId: 'staff', role: 'staff', superAdmin: false };
const admin: Principal = { userId: 'admin', role: 'admin', superAdmin: false };
const superAdmin: Principal = { userId: 'super', role: 'admin', superAdmin: true };
const developer: Principal = { userId: 'dev', role: 'developer', superAdmin: false };
const principals = { staff, admin, superAdmin, developer };
type Who = keyof typeof principals;

/** docs/product.md §6, row by row: who holds each capability. */
const matrix: Record<Capability, Who[]> = {
  viewShifts: ['staff', 'admin', 'superAdmin', 'developer'],
  claimShift: ['staff', 'admin', 'superAdmin', 'developer'],
  viewOwnShifts: ['staff', 'admin', 'superAdmin', 'developer'],
  requestDrop: ['staff', 'admin', 'superAdmin', 'developer'],
  requestTransfer: ['staff', 'admin', 'superAdmin', 'developer'],
  respondToTransfer: ['staff', 'admin', 'superAdmin', 'developer'],
  cancelOwnTransfer: ['staff', 'admin', 'superAdmin', 'developer'],
  viewNotifications: ['staff', 'admin', 'superAdmin', 'developer'],
  createShift: ['admin', 'superAdmin', 'developer'],
  seeShiftIds: ['admin', 'superAdmin', 'developer'],
  editShift: ['admin', 'superAdmin', 'developer'],
  deleteShift: ['admin', 'superAdmin', 'developer'],
  assignShift: ['admin', 'superAdmin', 'developer'],
  seeShiftHolder: ['admin', 'superAdmin', 'developer'],
  reachAdmin: ['admin', 'superAdmin', 'developer'],
  approveClaims: ['admin', 'superAdmin', 'developer'],
  approveDrops: ['admin', 'superAdmin', 'developer'],
  viewPendingApprovals: ['admin', 'superAdmin', 'developer'],
  viewDropRequests: ['admin', 'superAdmin', 'developer'],
  manageUsers: ['admin', 'superAdmin', 'developer'],
  seeOriginalShiftId: ['admin', 'superAdmin', 'developer'],
  manageCredentials: ['admin', 'superAdmin', 'developer'],
  viewCoverageAnalytics: ['admin', 'superAdmin', 'developer'],
  manageResidences: ['superAdmin', 'developer'],
  filterPendingByLocation: ['superAdmin', 'developer'],
  viewCompletedShifts: ['superAdmin', 'developer'],
  viewAuditLogs: ['superAdmin', 'developer'],
  sendReport: ['superAdmin', 'developer'],
  resendEmail: ['superAdmin', 'developer'],
  changeUserRoles: ['superAdmin', 'developer'],
  changeWorkingTimeRules: ['superAdmin', 'developer'],
  changeEscalationPolicy: ['superAdmin', 'developer'],
  developerTools: ['developer'],
  changeEmailNotificationMode: ['developer'],
  clearCompletedRecords: ['developer'],
};

describe('the docs/product.md §6 capability matrix', () => {
  for (const [capability, holders] of Object.entries(matrix)) {
    it(`${capability}: ${holders.join(', ')}`, () => {
      for (const [who, principal] of Object.entries(principals)) {
        expect(can(principal, capability as Capability), who).toBe(holders.includes(who as Who));
      }
    });
  }
});

const target = (role: Principal['role'], superAdminFlag = false, userId = 'target'): Principal => ({
  userId,
  role,
  superAdmin: superAdminFlag,
});

describe('user-management rules', () => {
  it('create: admins only by super admins or developers, developers only by developers, Super Admin only on admins', () => {
    expect(canCreateUser(admin, { role: 'staff', superAdmin: false })).toBe(true);
    expect(canCreateUser(admin, { role: 'admin', superAdmin: false })).toBe(false);
    expect(canCreateUser(superAdmin, { role: 'admin', superAdmin: true })).toBe(true);
    expect(canCreateUser(superAdmin, { role: 'developer', superAdmin: false })).toBe(false);
    expect(canCreateUser(developer, { role: 'developer', superAdmin: false })).toBe(true);
    expect(canCreateUser(developer, { role: 'staff', superAdmin: true })).toBe(false);
    expect(canCreateUser(staff, { role: 'staff', superAdmin: false })).toBe(false);
  });

  it('roles offered: developers see Developer, super admins do not', () => {
    expect(assignableRoles(developer)).toContain('developer');
    expect(assignableRoles(superAdmin)).toEqual(['admin', 'staff']);
    expect(assignableRoles(admin)).toEqual(['staff']);
  });

  it('edit: a developer anyone, a super admin non-developers, a plain admin only staff', () => {
    expect(canEditUser(developer, target('developer'))).toBe(true);
    expect(canEditUser(superAdmin, target('admin'))).toBe(true);
    expect(canEditUser(superAdmin, target('developer'))).toBe(false);
    expect(canEditUser(admin, target('staff'))).toBe(true);
    expect(canEditUser(admin, target('admin'))).toBe(false);
    expect(canEditUser(staff, target('staff'))).toBe(false);
  });

  it('role changes: only developers and super admins, within the roles they may give', () => {
    expect(canChangeRole(admin, target('staff'), { role: 'admin', superAdmin: false })).toBe(false);
    expect(canChangeRole(admin, target('staff'), { role: 'staff', superAdmin: false })).toBe(true);
    expect(canChangeRole(superAdmin, target('staff'), { role: 'admin', superAdmin: true })).toBe(true);
    expect(canChangeRole(superAdmin, target('staff'), { role: 'developer', superAdmin: false })).toBe(false);
    expect(canChangeRole(developer, target('staff'), { role: 'developer', superAdmin: false })).toBe(true);
    expect(canChangeRole(developer, target('staff'), { role: 'staff', superAdmin: true })).toBe(false);
  });

  it('a super admin’s role and flag: changed by a developer or by themselves, never by a peer', () => {
    const peer = target('admin', true);
    expect(canChangeRole(superAdmin, peer, { role: 'admin', superAdmin: false })).toBe(false);
    expect(canChangeRole(superAdmin, peer, { role: 'staff', superAdmin: false })).toBe(false);
    expect(canChangeRole(superAdmin, peer, { role: 'admin', superAdmin: true })).toBe(true);
    expect(canChangeRole(developer, peer, { role: 'admin', superAdmin: false })).toBe(true);
    expect(canChangeRole(superAdmin, superAdmin, { role: 'admin', superAdmin: false })).toBe(true);
  });

  it("another user's password: a developer for anyone else, a super admin for non-developers who are not super admins, never oneself", () => {
    expect(canResetPassword(developer, target('developer'))).toBe(true);
    expect(canResetPassword(developer, developer)).toBe(false);
    expect(canResetPassword(superAdmin, target('staff'))).toBe(true);
    expect(canResetPassword(superAdmin, target('admin', true))).toBe(false);
    expect(canResetPassword(superAdmin, target('developer'))).toBe(false);
    expect(canResetPassword(admin, target('staff'))).toBe(false);
  });

  it('assign residence: only to admin users, by super admins or developers', () => {
    expect(canAssignResidence(superAdmin, target('admin'))).toBe(true);
    expect(canAssignResidence(developer, target('admin'))).toBe(true);
    expect(canAssignResidence(developer, target('staff'))).toBe(false);
    expect(canAssignResidence(admin, target('admin'))).toBe(false);
  });

  it('delete: never oneself; admins only by super admins or developers; developers and super admins only by developers', () => {
    expect(canDeleteUser(admin, target('staff'))).toBe(true);
    expect(canDeleteUser(admin, target('admin'))).toBe(false);
    expect(canDeleteUser(superAdmin, target('admin'))).toBe(true);
    expect(canDeleteUser(superAdmin, target('admin', true))).toBe(false);
    expect(canDeleteUser(superAdmin, target('developer'))).toBe(false);
    expect(canDeleteUser(developer, target('admin', true))).toBe(true);
    expect(canDeleteUser(developer, developer)).toBe(false);
    expect(canDeleteUser(staff, target('staff'))).toBe(false);
  });

  it('transfers go to staff or admins other than oneself; assignments only to staff', () => {
    expect(isTransferRecipient('me', target('staff'))).toBe(true);
    expect(isTransferRecipient('me', target('admin'))).toBe(true);
    expect(isTransferRecipient('me', target('developer'))).toBe(false);
    expect(isTransferRecipient('me', target('staff', false, 'me'))).toBe(false);
    expect(isAssignable(target('staff'))).toBe(true);
    expect(isAssignable(target('admin'))).toBe(false);
  });
});

describe('refusals, keyed by capability', () => {
  it('says what docs/product.md §2 shows non-admins on Pending Approvals', () => {
    expect(refusalFor('viewPendingApprovals')).toBe('Access denied. Admin privileges required.');
    expect(refusalFor('approveClaims')).toBe(refusalFor('viewPendingApprovals'));
  });

  it('refuses a command in the same words as the route', () => {
    const actor = { kind: 'user' as const, ...staff };
    expect(() => requireActorCan(actor, 'manageResidences')).toThrow(
      'Only super admins and developers can manage residences',
    );
    expect(() => requireActorCan(actor, 'claimShift')).not.toThrow();
  });
});
