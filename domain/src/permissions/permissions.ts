import type { Actor, Role } from '../shared/decider';

/**
 * The permission matrix of docs/product.md §6, in one place: the APIs enforce it and the web uses it to
 * show or hide controls.
 */

export interface Principal {
  userId: string;
  role: Role;
  superAdmin: boolean;
}

/** The account a user-management action is aimed at. */
export interface TargetUser {
  userId: string;
  role: Role;
  superAdmin: boolean;
}

export type Capability =
  // every signed-in user
  | 'viewShifts'
  | 'claimShift'
  | 'viewOwnShifts'
  | 'requestDrop'
  | 'requestTransfer'
  | 'respondToTransfer'
  | 'cancelOwnTransfer'
  | 'viewNotifications'
  // admin, developer and super admin
  | 'createShift'
  | 'seeShiftIds'
  | 'editShift'
  | 'deleteShift'
  | 'assignShift'
  | 'seeShiftHolder'
  | 'reachAdmin'
  | 'approveClaims'
  | 'approveDrops'
  | 'viewPendingApprovals'
  | 'viewDropRequests'
  | 'manageUsers'
  | 'seeOriginalShiftId'
  | 'manageCredentials'
  | 'viewCoverageAnalytics'
  // developer or super admin
  | 'manageResidences'
  | 'filterPendingByLocation'
  | 'viewCompletedShifts'
  | 'viewAuditLogs'
  | 'sendReport'
  | 'resendEmail'
  | 'changeUserRoles'
  | 'changeWorkingTimeRules'
  | 'changeEscalationPolicy'
  // developer only
  | 'developerTools'
  | 'changeEmailNotificationMode'
  | 'clearCompletedRecords';

const everyone: ReadonlySet<Capability> = new Set([
  'viewShifts',
  'claimShift',
  'viewOwnShifts',
  'requestDrop',
  'requestTransfer',
  'respondToTransfer',
  'cancelOwnTransfer',
  'viewNotifications',
]);

const administrators: ReadonlySet<Capability> = new Set([
  'createShift',
  'seeShiftIds',
  'editShift',
  'deleteShift',
  'assignShift',
  'seeShiftHolder',
  'reachAdmin',
  'approveClaims',
  'approveDrops',
  'viewPendingApprovals',
  'viewDropRequests',
  'manageUsers',
  'seeOriginalShiftId',
  'manageCredentials',
  'viewCoverageAnalytics',
]);

// docs/product.md lists residences under "admin" once and under "super admin or developer" for the tab; the
// narrower reading is enforced so the server never allows what the screen hides.
const seniorAdministrators: ReadonlySet<Capability> = new Set([
  'manageResidences',
  'filterPendingByLocation',
  'viewCompletedShifts',
  'viewAuditLogs',
  'sendReport',
  'resendEmail',
  'changeUserRoles',
  'changeWorkingTimeRules',
  'changeEscalationPolicy',
]);

const developersOnly: ReadonlySet<Capability> = new Set([
  'developerTools',
  'changeEmailNotificationMode',
  'clearCompletedRecords',
]);

export function isAdministrator(p: Principal): boolean {
  return p.role === 'admin' || p.role === 'developer' || p.superAdmin;
}

export function isSeniorAdministrator(p: Principal): boolean {
  return p.role === 'developer' || (p.role === 'admin' && p.superAdmin);
}

export function can(p: Principal, capability: Capability): boolean {
  if (everyone.has(capability)) return true;
  if (administrators.has(capability)) return isAdministrator(p);
  if (seniorAdministrators.has(capability)) return isSeniorAdministrator(p);
  if (developersOnly.has(capability)) return p.role === 'developer';
  return false;
}

/** The principal behind a command's actor; the system acts with every right. */
export function principalOf(actor: Actor): Principal | 'system' {
  return actor.kind === 'system'
    ? 'system'
    : { userId: actor.userId, role: actor.role, superAdmin: actor.superAdmin };
}

export function actorCan(actor: Actor, capability: Capability): boolean {
  const p = principalOf(actor);
  return p === 'system' || can(p, capability);
}

/** Which new accounts this principal may create (docs/product.md §6 "Create user"). */
export function canCreateUser(p: Principal, account: { role: Role; superAdmin: boolean }): boolean {
  if (!can(p, 'manageUsers')) return false;
  if (account.superAdmin && (account.role !== 'admin' || !isSeniorAdministrator(p))) return false;
  if (account.role === 'developer') return p.role === 'developer';
  if (account.role === 'admin') return isSeniorAdministrator(p);
  return true;
}

/** Roles the principal may pick in the create and edit forms. */
export function assignableRoles(p: Principal): Role[] {
  if (p.role === 'developer') return ['developer', 'admin', 'staff'];
  if (isSeniorAdministrator(p)) return ['admin', 'staff'];
  return ['staff'];
}

export function canEditUser(p: Principal, target: TargetUser): boolean {
  if (p.role === 'developer') return true;
  if (p.role === 'admin' && p.superAdmin) return target.role !== 'developer';
  if (p.role === 'admin') return target.role === 'staff';
  return false;
}

/** Whether the edit may set this role and Super Admin flag on the target. */
export function canChangeRole(
  p: Principal,
  target: TargetUser,
  next: { role: Role; superAdmin: boolean },
): boolean {
  if (next.role === target.role && next.superAdmin === target.superAdmin) return true;
  if (!can(p, 'changeUserRoles') || !canEditUser(p, target)) return false;
  // Taking away another super admin's powers would let a peer then reset their password or delete
  // them, so only a developer changes the role or flag of a super admin other than oneself.
  if (target.superAdmin && target.userId !== p.userId && p.role !== 'developer') return false;
  if (next.superAdmin && next.role !== 'admin') return false;
  return assignableRoles(p).includes(next.role);
}

export function canResetPassword(p: Principal, target: TargetUser): boolean {
  if (p.userId === target.userId) return false;
  if (p.role === 'developer') return true;
  if (p.role === 'admin' && p.superAdmin) return target.role !== 'developer' && !target.superAdmin;
  return false;
}

export function canAssignResidence(p: Principal, target: TargetUser): boolean {
  return target.role === 'admin' && isSeniorAdministrator(p);
}

export function canDeleteUser(p: Principal, target: TargetUser): boolean {
  if (p.userId === target.userId || !can(p, 'manageUsers')) return false;
  if (target.role === 'developer' || target.superAdmin) return p.role === 'developer';
  if (target.role === 'admin') return isSeniorAdministrator(p);
  return true;
}

/** Transfer recipients: staff or admin accounts other than oneself. */
export function isTransferRecipient(senderId: string, recipient: TargetUser): boolean {
  return recipient.userId !== senderId && (recipient.role === 'staff' || recipient.role === 'admin');
}

/** Manual assignment targets: staff accounts only. */
export function isAssignable(target: TargetUser): boolean {
  return target.role === 'staff';
}
