/**
 * Stream names, in one place. A stream's name is its category, a dash, and the id of what it
 * records; every package names and recognises streams through this module.
 */
export const streamCategories = [
  'shift',
  'schedule',
  'user',
  'residence',
  'config',
  'inbox',
  'operation',
  'unique',
  'calendar',
] as const;

export type StreamCategory = (typeof streamCategories)[number];

const named = (category: StreamCategory, id: string) => `${category}-${id}`;

export const streams = {
  shift: (shiftId: string) => named('shift', shiftId),
  schedule: (userId: string) => named('schedule', userId),
  user: (userId: string) => named('user', userId),
  residence: (residenceId: string) => named('residence', residenceId),
  emailNotificationMode: () => named('config', 'email-notification-mode'),
  workingTimeRules: () => named('config', 'working-time-rules'),
  credentialTypes: () => named('config', 'credential-types'),
  escalationPolicy: () => named('config', 'escalation-policy'),
  inbox: (userId: string) => named('inbox', userId),
  /** A person's private calendar feed: the digest of its address, made and revoked. */
  calendarFeed: (userId: string) => named('calendar', userId),
  operation: (operationId: string) => named('operation', operationId),
  /** A unique value's claim, named by a digest of the value so no personal data names a stream. */
  unique: (kind: string, digest: string) => named('unique', `${kind}-${digest}`),
};

/** The category a stream belongs to, or undefined for a name outside the product's categories. */
export function categoryOf(streamId: string): StreamCategory | undefined {
  return streamCategories.find((category) => streamId.startsWith(`${category}-`));
}

export function inCategory(streamId: string, category: StreamCategory): boolean {
  return streamId.startsWith(`${category}-`);
}

/** The id a stream records, read back from its name: `shift-abc` gives `abc`. */
export function idInStream(streamId: string, category: StreamCategory): string | undefined {
  return inCategory(streamId, category) ? streamId.slice(category.length + 1) : undefined;
}
