import type { View } from '@shiftcover/domain';

export type { View };

/**
 * Query keys, built in one place. Each key starts with the name of the server view it reads, so a
 * live change notice naming a view (see live.ts) refreshes exactly the queries that show it.
 */
export const keys = {
  currentUser: ['auth-user'] as const,
  shifts: (filters: Record<string, string> = {}) => ['shifts', filters] as const,
  /** A shift list read a page at a time (an infinite query's pages, not one array). */
  shiftPages: (filters: Record<string, string>) => ['shifts', 'pages', filters] as const,
  inProgress: ['shifts', 'in-progress'] as const,
  shiftHistory: (shiftId: string) => ['shifts', 'history', shiftId] as const,
  shiftOutreach: (shiftId: string) => ['shifts', 'outreach', shiftId] as const,
  pending: (location = 'all') => ['pending', location] as const,
  dropRequests: ['drop-requests'] as const,
  transferRequests: ['transfer-requests'] as const,
  myShifts: ['my-shifts'] as const,
  calendarFeed: ['calendar-feed'] as const,
  stats: ['stats'] as const,
  users: (filters: Record<string, string> = {}) => ['users', filters] as const,
  residences: ['residences'] as const,
  completedShifts: ['completed-shifts'] as const,
  auditLogs: (filters: Record<string, string | number> = {}) => ['audit-logs', filters] as const,
  notifications: ['notifications'] as const,
  emailMode: ['config', 'email-notification-mode'] as const,
  emailQueue: ['config', 'email-queue'] as const,
  // The rules' queries sit under the views a change to them is announced as: a person's credentials
  // under 'credentials' and their time off under 'time-off', the organisation's lists under 'config',
  // a shift's eligibility under 'shifts', asked again by a live notice only when the shift itself,
  // the person's schedule, credentials or time off, or the rules changed (see live.ts).
  credentialTypes: ['config', 'credential-types'] as const,
  workingTimeRules: ['config', 'working-time-rules'] as const,
  escalationPolicy: ['config', 'escalation-policy'] as const,
  credentials: (userId: string) => ['credentials', userId] as const,
  timeOff: (userId: string) => ['time-off', userId] as const,
  myTimeOff: ['time-off', 'mine'] as const,
  eligibility: (shiftId: string, userId = 'me') => ['shifts', 'eligibility', shiftId, userId] as const,
  alternatives: (shiftId: string) => ['shifts', 'alternatives', shiftId] as const,
  // Coverage analytics are figures of shifts: any change to shifts asks again.
  coverage: (filters: Record<string, string>) => ['shifts', 'coverage', filters] as const,
};

/** What a change to shifts touches, for mutations to invalidate after their own write. */
export const shiftViews: View[] = [
  'shifts',
  'pending',
  'drop-requests',
  'transfer-requests',
  'my-shifts',
  'stats',
];
