import { z } from 'zod';
import { positioned, timestamp } from './answers';
import { shiftFactFields } from './shifts';

/** A completed-shift record as GET /api/completed-shifts answers. */
export const completedShiftViewSchema = z.object({
  id: z.string(),
  originalShiftId: z.string().nullable(),
  ...shiftFactFields,
  assignedUserId: z.string().nullable(),
  assignedUserName: z.string().nullable(),
  createdById: z.string().nullable(),
  shiftCompletedAt: timestamp,
  loggedAt: timestamp,
  /** Minutes, despite the name. */
  hoursWorked: z.number(),
  reported: z.boolean(),
  reportedAt: timestamp.nullable(),
});
export type CompletedShiftView = z.input<typeof completedShiftViewSchema>;

const auditEntryViewSchema = z.object({
  id: z.string(),
  userId: z.string(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  description: z.string(),
  details: z.record(z.string(), z.unknown()),
  timestamp,
  userName: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  userRole: z.string(),
  userEmail: z.string().nullable(),
});
export type AuditEntryView = z.input<typeof auditEntryViewSchema>;

/** One page of the audit log, newest first. */
export const auditPageViewSchema = z.object({
  logs: z.array(auditEntryViewSchema),
  totalCount: z.number(),
  hasMore: z.boolean(),
});
export type AuditPageView = z.input<typeof auditPageViewSchema>;

export const emailQueueStatusViewSchema = z.object({
  total: z.number(),
  ready: z.number(),
  pending: z.number(),
  failed: z.number(),
  processing: z.boolean(),
  oldestWaiting: timestamp.nullable(),
});
export type EmailQueueStatusView = z.input<typeof emailQueueStatusViewSchema>;

/** A mail as the developer tools list it: sent, waiting, failed, or kept in the outbox. */
export const outboxMailViewSchema = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: timestamp,
  sentAt: timestamp.nullable(),
});

/** An event a read model or process could not apply, set aside for a developer. */
export const parkedEventViewSchema = z.object({
  id: z.string(),
  consumer: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  streamId: z.string(),
  position: z.string(),
  error: z.string(),
  attempts: z.number(),
  parkedAt: timestamp,
});

/** A developer's retry of a parked event: whether it applied this time. */
export const parkedRetryAnswer = positioned({ applied: z.boolean(), message: z.string() });

/** The answers of the developer tools and reports that count what they did. */
export const emailDiagnosticAnswer = positioned({
  message: z.string(),
  email: z.string(),
  smtpConfigured: z.boolean(),
  ok: z.boolean(),
  answer: z.string(),
});
export const remindersAnswer = positioned({ message: z.string(), reminded: z.number() });
export const bulkTestAnswer = positioned({
  message: z.string(),
  shiftsCreated: z.number(),
  emailsQueued: z.number(),
});
export const clearedAnswer = positioned({ message: z.string(), clearedCount: z.number() });
export const completedReportAnswer = positioned({ message: z.string(), reportedCount: z.number() });
