/** docs/product.md §3: every audit action and entity type the log may hold. */
export const auditActions = [
  'user_created',
  'user_updated',
  'user_deleted',
  'shift_created',
  'shift_updated',
  'shift_deleted',
  'shift_assigned',
  'shift_manually_assigned',
  'shift_claimed',
  'shift_approved',
  'shift_denied',
  'shift_drop_requested',
  'shift_drop_approved',
  'shift_drop_denied',
  'shift_marked_urgent',
  'shift_escalated',
  'shift_completed',
  'shift_expired',
  'password_changed',
  'residence_created',
  'residence_updated',
  'residence_deleted',
  'residence_assigned',
  'manual_report_sent',
  'system_enhancement',
  'login',
  'logout',
] as const;

export const auditEntityTypes = ['shift', 'user', 'residence', 'report', 'notification_system'] as const;

export interface AuditFilters {
  userId: string;
  action: string;
  entityType: string;
  startDate: string;
  endDate: string;
}

export const defaultAuditFilters: AuditFilters = {
  userId: 'all',
  action: 'all',
  entityType: 'all',
  startDate: '',
  endDate: '',
};

export const AUDIT_PAGE_SIZE = 100;

/** 'shift_drop_requested' → 'Shift Drop Requested'. */
export function humanize(value: string): string {
  return value
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export function isFiltered(filters: AuditFilters): boolean {
  return (Object.keys(defaultAuditFilters) as (keyof AuditFilters)[]).some(
    (field) => filters[field] !== defaultAuditFilters[field],
  );
}

/** The badge tone for an action: removals red, changes amber, creations green, the rest neutral. */
export function actionTone(action: string): 'removal' | 'change' | 'creation' | 'neutral' {
  if (/deleted|denied|expired/.test(action)) return 'removal';
  if (/updated|urgent|drop_requested|password/.test(action)) return 'change';
  if (/created|approved|claimed|assigned|completed/.test(action)) return 'creation';
  return 'neutral';
}
