import {
  audienceLabels,
  type EscalationStep,
  idInStream,
  type OutreachNotice,
  stepLabel,
} from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { oneAtATime, type Projection, type TableName } from '../projection';
import { insertRows } from '../rows';
import { factsLabel, type ShiftFacts, ShiftFactsBatch, shiftFactsSchema } from './shift-facts';

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
    describe: (d, s) => {
      const override = d.override as { reason: string } | undefined;
      return override
        ? `Assigned the ${factsLabel(s)} against the working-time rules: ${override.reason}`
        : `Assigned the ${factsLabel(s)}`;
    },
  },
  // docs/product.md §10: every refusal by a safety rule is recorded, with the rule and its figures.
  ShiftRefused: {
    action: 'shift_refused',
    entityType: 'shift',
    describe: (d, s) => `Refused a ${d.action} of the ${factsLabel(s)} (${d.code}): ${d.message}`,
  },
  CredentialRecorded: {
    action: 'credential_recorded',
    entityType: 'user',
    describe: (d) =>
      `Recorded the ${d.name} credential${d.expiresOn ? `, valid through ${d.expiresOn}` : ''}`,
  },
  CredentialRemoved: {
    action: 'credential_removed',
    entityType: 'user',
    describe: (d) => `Removed the ${d.name} credential`,
  },
  TimeOffRecorded: {
    action: 'time_off_recorded',
    entityType: 'user',
    describe: (d) => `Recorded time off from ${d.startDate} to ${d.endDate}`,
  },
  TimeOffCancelled: {
    action: 'time_off_cancelled',
    entityType: 'user',
    describe: () => 'Cancelled time off',
  },
  CredentialTypeAdded: {
    action: 'system_enhancement',
    entityType: 'credential_type',
    describe: (d) => `Added ${d.name} to the list of credentials`,
  },
  CredentialTypeRemoved: {
    action: 'system_enhancement',
    entityType: 'credential_type',
    describe: (d) => `Removed ${d.name} from the list of credentials`,
  },
  WorkingTimeRulesSet: {
    action: 'system_enhancement',
    entityType: 'working_time_rules',
    describe: (d) =>
      `Set the working-time rules (version ${d.version}): at least ${d.minRestHours} h of rest, at most ${d.maxHoursPerWeek} h a week and ${d.maxConsecutiveDays} days in a row`,
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
  ShiftEscalated: {
    action: 'shift_escalated',
    entityType: 'shift',
    describe: (d, s) => {
      const step = d.step as EscalationStep;
      const told = new Set((d.notices as OutreachNotice[]).map((n) => n.userId ?? 'the mailing list')).size;
      return `Escalated the ${factsLabel(s)}: ${stepLabel(step).toLowerCase()}, ${audienceLabels[step.audience].toLowerCase()} told (${told})`;
    },
  },
  EscalationPolicySet: {
    action: 'system_enhancement',
    entityType: 'escalation_policy',
    describe: (d) =>
      `Set the escalation policy (version ${d.version}): ${(d.steps as unknown[]).length} steps`,
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
  if (d.credentialTypeId) return String(d.credentialTypeId);
  if (event.type === 'WorkingTimeRulesSet') return 'working-time-rules';
  return String(d.shiftId ?? d.userId ?? d.residenceId ?? 'email-notification-mode');
}

/**
 * An audit entry's technical details: its event itself, without any personal data (what is sealed,
 * and the address test mails named in clear before addresses were sealed). The read model does not
 * keep them: the entry's id is its event's position, and the details are read from the log when
 * the entry is shown, so the read model does not hold a second copy of the whole log.
 */
export function auditDetails(event: RecordedEvent) {
  const { personal: _personal, email: _email, ...data } = event.data;
  return {
    eventType: event.type,
    streamId: event.streamId,
    position: event.position.toString(),
    data,
    metadata: event.metadata,
  };
}

/**
 * The audit row of an event, with the shift it is about named as it was before the event (as
 * posted, for the event that posts it); none for events nobody causes or bulk-test shifts.
 */
function auditRow(event: RecordedEvent, facts: ShiftFactsBatch) {
  // Shifts of the e-mail bulk test are not the organisation's work; the test itself is audited.
  const entry = event.data.testData ? undefined : entries[event.type];
  const before = entry?.entityType === 'shift' ? facts.get(event.data.shiftId) : undefined;
  facts.track(event);
  if (!entry) return undefined;
  const shift = before ?? facts.get(event.data.shiftId);
  return {
    id: event.position.toString(),
    user_id: event.metadata.actorId,
    user_role: event.metadata.actorSuperAdmin ? 'super_admin' : event.metadata.actorRole,
    action: entry.action,
    entity_type: entry.entityType,
    entity_id: entityId(event),
    description: entry.describe(event.data, shift),
    timestamp: typeof event.data.at === 'string' ? event.data.at : event.recordedAt,
  };
}

async function applyAuditBatch(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  const facts = await ShiftFactsBatch.load(tx, t('audit_shift_facts'), events);
  const rows = events.flatMap((event) => auditRow(event, facts) ?? []);
  await facts.save(tx);
  await insertRows(tx, t('audit_logs'), rows);
}

/** The audit log: who did what to which entity, when, from every event and its metadata. */
export const auditLogProjection: Projection = {
  name: 'audit_log',
  version: 3,
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
      timestamp timestamptz not null
    );`,
  indexes: (t) => `
    create index on ${t('audit_logs')} (timestamp desc);
    create index on ${t('audit_logs')} (user_id, timestamp desc);`,

  applyBatch: applyAuditBatch,
  apply: oneAtATime(applyAuditBatch),
};
