import type { Actor } from '../shared/decider';
import { reject } from '../shared/errors';
import { actorCan, type Capability } from './permissions';

const ADMINS_ONLY = 'Access denied. Admin privileges required.';
// Every signed-in user holds these, so nobody meets this refusal; the map still names every capability.
const NOT_ALLOWED = 'You do not have permission to do this';

/** What a 403 says when the caller lacks a capability: the same words from route and decider. */
const refusals: Record<Capability, string> = {
  viewShifts: NOT_ALLOWED,
  claimShift: NOT_ALLOWED,
  viewOwnShifts: NOT_ALLOWED,
  requestDrop: NOT_ALLOWED,
  requestTransfer: NOT_ALLOWED,
  respondToTransfer: NOT_ALLOWED,
  cancelOwnTransfer: NOT_ALLOWED,
  viewNotifications: NOT_ALLOWED,
  createShift: 'Only admins can create shifts',
  seeShiftIds: ADMINS_ONLY,
  editShift: 'Only admins can edit shifts',
  deleteShift: 'Only admins can delete shifts',
  assignShift: 'Only admins can assign shifts',
  seeShiftHolder: ADMINS_ONLY,
  // docs/product.md §8: the Access Denied toast of the admin dashboard.
  reachAdmin: "You don't have permission to access this page.",
  // docs/product.md §2 Pending Approvals: what non-admins see.
  approveClaims: ADMINS_ONLY,
  approveDrops: ADMINS_ONLY,
  viewPendingApprovals: ADMINS_ONLY,
  viewDropRequests: ADMINS_ONLY,
  manageUsers: "You don't have permission to manage users",
  seeOriginalShiftId: ADMINS_ONLY,
  manageResidences: 'Only super admins and developers can manage residences',
  filterPendingByLocation: NOT_ALLOWED,
  viewCompletedShifts: 'Only super admins and developers can view completed shifts',
  viewAuditLogs: 'Only super admins and developers can view audit logs',
  sendReport: 'Only super admins and developers can send reports',
  resendEmail: 'Only super admins and developers can resend e-mails',
  changeUserRoles: "You don't have permission to change this user's role",
  manageCredentials: 'Only admins can manage credentials',
  viewCoverageAnalytics: 'Only admins can view coverage analytics',
  changeWorkingTimeRules: 'Only super admins and developers can change the working-time rules',
  changeEscalationPolicy: 'Only super admins and developers can change the escalation policy',
  developerTools: 'Only developers can use the developer tools',
  changeEmailNotificationMode: 'Only developers can change the e-mail notification mode',
  clearCompletedRecords: 'Only developers can clear completed shifts',
};

export function refusalFor(capability: Capability): string {
  return refusals[capability];
}

/** A decider's guard: the actor holds the capability, or the command is refused as the route would. */
export function requireActorCan(actor: Actor, capability: Capability): void {
  if (!actorCan(actor, capability)) reject('forbidden', refusalFor(capability));
}
