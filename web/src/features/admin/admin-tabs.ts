import { type Capability, can, type Principal } from '@shiftcover/domain';

export type AdminTab =
  | 'pending-approvals'
  | 'shift-management'
  | 'drop-requests'
  | 'in-progress'
  | 'user-management'
  | 'staff-rules'
  | 'analytics'
  | 'residences'
  | 'completed-shifts'
  | 'audit-logs'
  | 'developer-tools';

/** The Management Tools tabs in docs/product.md §2's order, with the capability each needs. */
const tabs: { value: AdminTab; label: string; needs: Capability }[] = [
  { value: 'pending-approvals', label: 'Pending Approvals', needs: 'viewPendingApprovals' },
  { value: 'shift-management', label: 'Shift Management', needs: 'editShift' },
  { value: 'drop-requests', label: 'Drop Requests', needs: 'viewDropRequests' },
  { value: 'in-progress', label: 'Shifts in Progress', needs: 'viewPendingApprovals' },
  { value: 'user-management', label: 'User Management', needs: 'manageUsers' },
  { value: 'staff-rules', label: 'Credentials & Rules', needs: 'manageCredentials' },
  { value: 'analytics', label: 'Analytics', needs: 'viewCoverageAnalytics' },
  { value: 'residences', label: 'Residences', needs: 'manageResidences' },
  { value: 'completed-shifts', label: 'Completed Shifts', needs: 'viewCompletedShifts' },
  { value: 'audit-logs', label: 'Audit Logs', needs: 'viewAuditLogs' },
  { value: 'developer-tools', label: 'Developer tools', needs: 'developerTools' },
];

export const DEFAULT_ADMIN_TAB: AdminTab = 'pending-approvals';

export function visibleAdminTabs(principal: Principal): { value: AdminTab; label: string }[] {
  return tabs.filter((tab) => can(principal, tab.needs)).map(({ value, label }) => ({ value, label }));
}
