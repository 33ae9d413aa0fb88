import { idInStream } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { Projection } from '../projection';
import { factsLabel, type ShiftFacts, shiftFacts, shiftFactsSchema, trackShiftFacts } from './shift-facts';

type Entry = {
  action: string;
  entityType: string;
  describe: (d: Record<string, unknown>, shift?: ShiftFacts) => string;
};

/** docs/product.md §3 audit actions for each event that people cause; stream mechanics are not audited. */
const entries: Record<string, Entry> = {
  ShiftPosted: {
    action: 'shift_created',
    entityType: 'shift',
    describe: (_, s) => `Created the ${factsLabel(s)}`,
  },
  ShiftUpdated: {
    action: 'shift_updated',
    entityType: 'shift',
    describe: (_, s) => `Updated the ${factsLabel(s)}`,
  },
  ShiftDeleted: {
    action: 'shift_deleted',
    entityType: 'shift',
    describe: (_, s) => `Deleted the ${factsLabel(s)}`,
  },
  ShiftClaimed: {
    action: 'shift_claimed',
    entityType: 'shift',
    describe: (_, s) => `Claimed the ${factsLabel(s)}`,
  },
  ClaimApproved: {
    action: 'shift_approved',
    entityType: 'shift',
    describe: (_, s) => `Approved the claim on the ${factsLabel(s)}`,
  },
  ClaimDenied: {
    action: 'shift_denied',
    entityType: 'shift',
    describe: (_, s) => `Denied the claim on the ${factsLabel(s)}`,
  },
  ShiftAssigned: {
    action: 'shift_manually_assigned',
    entityType: 'shift',
    describe: (_, s) => `Assigned the ${factsLabel(s)}`,
  },
  DropRequested: {
    action: 'shift_drop_requested',
    entityType: 'shift',
    describe: (_, s) => `Asked to drop the ${factsLabel(s)}`,
  },
  DropApproved: {
    action: 'shift_drop_approved',
    entityType: 'shift',
    describe: (_, s) => `Approved dropping the ${factsLabel(s)}`,
  },
  DropDenied: {
    action: 'shift_drop_denied',
    entityType: 'shift',
    describe: (_, s) => `Denied dropping the ${factsLabel(s)}`,
  },
  TransferRequested: {
    action: 'shift_transfer_requested',
    entityType: 'shift',
    describe: (_, s) => `Offered the ${factsLabel(s)} to a colleague`,
  },
  TransferAccepted: {
    action: 'shift_assigned',
    entityType: 'shift',
    describe: (_, s) => `Accepted the transfer of the ${factsLabel(s)}`,
  },
  TransferDeclined: {
    action: 'shift_transfer_declined',
    entityType: 'shift',
    describe: (_, s) => `Declined the transfer of the ${factsLabel(s)}`,
  },
  TransferCancelled: {
    action: 'shift_transfer_cancelled',
    entityType: 'shift',
    describe: (_, s) => `Cancelled the transfer of the ${factsLabel(s)}`,
  },
  ShiftMarkedUrgent: {
    action: 'shift_marked_urgent',
    entityType: 'shift',
    describe: (d, s) => `Marked the ${factsLabel(s)} ${d.priority}`,
  },
  HolderRemoved: {
    action: 'shift_updated',
    entityType: 'shift',
    describe: (_, s) => `Reopened the ${factsLabel(s)}: the account of the person on it was deleted`,
  },
  ShiftCompleted: {
    action: 'shift_completed',
    entityType: 'shift',
    describe: (_, s) => `Completed the ${factsLabel(s)}`,
  },
  ShiftExpired: {
    action: 'shift_expired',
    entityType: 'shift',
    describe: (_, s) => `The ${factsLabel(s)} ended unfilled`,
  },
  UserRegistered: {
    action: 'user_created',
    entityType: 'user',
    describe: (d) => `Created a ${d.role} account`,
  },
  UserUpdated: { action: 'user_updated', entityType: 'user', describe: () => 'Updated an account' },
  NotificationPreferenceChanged: {
    action: 'user_updated',
    entityType: 'user',
    describe: (d) => `Turned e-mail notifications ${d.enabled ? 'on' : 'off'}`,
  },
  UserDeleted: { action: 'user_deleted', entityType: 'user', describe: () => 'Deleted an account' },
  PasswordChanged: {
    action: 'password_changed',
    entityType: 'user',
    describe: () => 'Changed their password',
  },
  PasswordReset: {
    action: 'password_changed',
    entityType: 'user',
    describe: () => "Changed another user's password",
  },
  ResidenceAssigned: {
    action: 'residence_assigned',
    entityType: 'user',
    describe: () => 'Assigned a residence to an admin',
  },
  UserSignedIn: { action: 'login', entityType: 'user', describe: () => 'Signed in' },
  UserSignedOut: { action: 'logout', entityType: 'user', describe: () => 'Signed out' },
  ResidenceCreated: {
    action: 'residence_created',
    entityType: 'residence',
    describe: (d) => `Created the residence ${d.name}`,
  },
  ResidenceUpdated: {
    action: 'residence_updated',
    entityType: 'residence',
    describe: (d) => `Updated the residence ${d.name}`,
  },
  ResidenceDeleted: {
    action: 'residence_deleted',
    entityType: 'residence',
    describe: (d) => `Deleted the residence ${d.name}`,
  },
  TestEmailSent: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: () => 'Sent a test e-mail',
  },
  EmailDiagnosticRun: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) =>
      d.smtpConfigured
        ? `Ran the e-mail diagnostic: the SMTP server ${d.ok ? 'answered' : 'failed'}`
        : 'Ran the e-mail diagnostic: no SMTP server is configured',
  },
  BulkEmailTestRun: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) => `Ran an e-mail bulk test with ${(d.shiftIds as string[]).length} test shifts`,
  },
  EmailQueueCleared: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) => `Cleared ${d.clearedCount} e-mails from the queue`,
  },
  ShiftNotificationResent: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d, s) =>
      `Resent the new-shift e-mail for the ${factsLabel(s)} to ${(d.recipients as string[]).length} recipients`,
  },
  TestRemindersSent: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) => `Sent ${d.reminded} shift reminders as a test`,
  },
  CompletedShiftsReported: {
    action: 'manual_report_sent',
    entityType: 'report',
    describe: (d) =>
      `Sent the completed-shifts report for ${d.period} (${(d.recordIds as string[]).length} shifts)`,
  },
  CompletedShiftsCleared: {
    action: 'system_enhancement',
    entityType: 'report',
    describe: (d) => `Cleared ${(d.recordIds as string[]).length} completed-shift records`,
  },
  AuditReportSent: {
    action: 'manual_report_sent',
    entityType: 'report',
    describe: () => 'Sent the audit report to the super admins',
  },
  // Recorded by stores from before parked messages joined the parked events.
  ParkedMessageReplayed: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) => `Replayed a parked message for ${d.consumer}`,
  },
  ParkedEventRetried: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) =>
      `Retried the parked ${d.eventType} for ${d.consumer}: ${d.applied ? 'applied' : `still failing (${d.error})`}`,
  },
  ParkedEventSkipped: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) => `Skipped the parked ${d.eventType} for ${d.consumer}: ${d.reason}`,
  },
  EmailNotificationModeSet: {
    action: 'system_enhancement',
    entityType: 'notification_system',
    describe: (d) =>
      `Set e-mail notifications to ${d.mode === 'mailing_list' ? 'the mailing list' : 'individual addresses'}`,
  },
};

function entityId(event: RecordedEvent): string {
  const d = event.data;
  const operationId = idInStream(event.streamId, 'operation');
  if (operationId !== undefined && !d.shiftId) return operationId;
  return String(d.shiftId ?? d.userId ?? d.residenceId ?? 'email-notification-mode');
}

/**
 * The event itself as technical details, without any personal data: what is sealed, and the
 * address test mails named in clear before addresses were sealed.
 */
function technicalDetails(event: RecordedEvent) {
  const { personal: _personal, email: _email, ...data } = event.data;
  return {
    eventType: event.type,
    streamId: event.streamId,
    position: event.position.toString(),
    data,
    metadata: event.metadata,
  };
}

/** The audit log: who did what to which entity, when, from every event and its metadata. */
export const auditLogProjection: Projection = {
  name: 'audit_log',
  version: 2,
  tables: ['audit_logs', 'audit_shift_facts'],
  schema: (t) => `
    ${shiftFactsSchema(t('audit_shift_facts'))}
    create table ${t('audit_logs')} (
      id bigint primary key,
      user_id text not null,
      user_role text not null,
      action text not null,
      entity_type text not null,
      entity_id text not null,
      description text not null,
      details jsonb not null,
      timestamp timestamptz not null
    );
    create index on ${t('audit_logs')} (timestamp desc);
    create index on ${t('audit_logs')} (user_id, timestamp desc);`,

  async apply(tx, event, t) {
    // Shifts of the e-mail bulk test are not the organisation's work; the test itself is audited.
    const entry = event.data.testData ? undefined : entries[event.type];
    const shift =
      entry?.entityType === 'shift'
        ? await shiftFacts(tx, t('audit_shift_facts'), String(event.data.shiftId))
        : undefined;
    await trackShiftFacts(tx, event, t('audit_shift_facts'));
    if (!entry) return;
    const describedShift =
      shift ?? (await shiftFacts(tx, t('audit_shift_facts'), String(event.data.shiftId ?? '')));
    const timestamp = typeof event.data.at === 'string' ? event.data.at : event.recordedAt;
    await tx`insert into ${tx(t('audit_logs'))} (id, user_id, user_role, action, entity_type, entity_id, description, details, timestamp)
      values (${event.position.toString()}, ${event.metadata.actorId}, ${event.metadata.actorSuperAdmin ? 'super_admin' : event.metadata.actorRole},
        ${entry.action}, ${entry.entityType}, ${entityId(event)}, ${entry.describe(event.data, describedShift)},
        ${tx.json(technicalDetails(event) as never)}, ${timestamp})`;
  },
};
