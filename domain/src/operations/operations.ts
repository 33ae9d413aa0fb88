import type { Capability } from '../permissions/permissions';
import { requireActorCan } from '../permissions/refusals';
import type { Decider } from '../shared/decider';

/**
 * The developer and admin calls of docs/product.md §7 and the scheduled reports, each recorded once on a
 * stream of its own (`operation-<id>`): the audit trail names who did it, and the processes
 * turn the recorded fact into mail.
 */
/**
 * An address typed in by hand, with what goes with it, travels inside `personal`, sealed at rest
 * under a key of the address's own (`personalSubject`): erasing the person whose address it is
 * makes it unreadable, and it reads as null.
 */
export interface Addressed<P extends { email: string }> {
  personalSubject: string;
  personal: P | null;
}

export type OperationCommand =
  | { type: 'SendTestEmail'; data: Addressed<{ email: string; subject: string; message: string }> }
  | {
      type: 'RecordEmailDiagnostic';
      data: Addressed<{ email: string }> & { smtpConfigured: boolean; ok: boolean; answer: string };
    }
  | { type: 'RecordBulkEmailTest'; data: { shiftIds: string[]; emailsQueued: number } }
  | { type: 'RecordEmailQueueCleared'; data: { clearedCount: number } }
  | { type: 'ResendShiftNotification'; data: { shiftId: string; recipients: string[] } }
  | { type: 'RecordTestReminders'; data: { reminded: number } }
  | {
      type: 'ReportCompletedShifts';
      data: { reportId: string; period: string; recordIds: string[] };
    }
  | { type: 'ClearCompletedShifts'; data: { recordIds: string[] } }
  | { type: 'SendAuditReport'; data: { reportId: string; from: string; until: string } }
  | {
      type: 'RecordParkedEventRetried';
      data: ParkedEventRef & { applied: boolean; error: string | null };
    }
  | { type: 'RecordParkedEventSkipped'; data: ParkedEventRef & { reason: string } };

/**
 * An event a read model or process could not apply and set aside (docs/operations.md §6): the
 * consumer that parked it and the event, by id, position and type.
 */
export type ParkedEventRef = { consumer: string; eventId: string; eventType: string; position: string };

type Fact<T extends string, D> = { type: T; data: D & { at: string } };
type DataOf<T extends OperationCommand['type']> = Extract<OperationCommand, { type: T }>['data'];

export type OperationEvent =
  | Fact<'TestEmailSent', DataOf<'SendTestEmail'>>
  | Fact<'EmailDiagnosticRun', DataOf<'RecordEmailDiagnostic'>>
  | Fact<'BulkEmailTestRun', DataOf<'RecordBulkEmailTest'>>
  | Fact<'EmailQueueCleared', DataOf<'RecordEmailQueueCleared'>>
  | Fact<'ShiftNotificationResent', DataOf<'ResendShiftNotification'>>
  | Fact<'TestRemindersSent', DataOf<'RecordTestReminders'>>
  | Fact<'CompletedShiftsReported', DataOf<'ReportCompletedShifts'>>
  | Fact<'CompletedShiftsCleared', DataOf<'ClearCompletedShifts'>>
  | Fact<'AuditReportSent', DataOf<'SendAuditReport'>>
  | Fact<'ParkedEventRetried', DataOf<'RecordParkedEventRetried'>>
  | Fact<'ParkedEventSkipped', DataOf<'RecordParkedEventSkipped'>>;

/** Each call, the event it records, and who may make it (docs/product.md §6). */
const operations: {
  [T in OperationCommand['type']]: [event: OperationEvent['type'], needs: Capability];
} = {
  SendTestEmail: ['TestEmailSent', 'developerTools'],
  RecordEmailDiagnostic: ['EmailDiagnosticRun', 'developerTools'],
  RecordBulkEmailTest: ['BulkEmailTestRun', 'developerTools'],
  RecordEmailQueueCleared: ['EmailQueueCleared', 'developerTools'],
  ResendShiftNotification: ['ShiftNotificationResent', 'resendEmail'],
  RecordTestReminders: ['TestRemindersSent', 'developerTools'],
  ReportCompletedShifts: ['CompletedShiftsReported', 'sendReport'],
  ClearCompletedShifts: ['CompletedShiftsCleared', 'clearCompletedRecords'],
  SendAuditReport: ['AuditReportSent', 'sendReport'],
  RecordParkedEventRetried: ['ParkedEventRetried', 'developerTools'],
  RecordParkedEventSkipped: ['ParkedEventSkipped', 'developerTools'],
};

/** A recorded operation happens once: a scheduled report keyed by its period is never sent twice. */
export const operationDecider: Decider<OperationCommand, OperationEvent, { done: boolean }> = {
  initialState: () => ({ done: false }),
  decide(command, state, context) {
    const [type, needs] = operations[command.type];
    requireActorCan(context.actor, needs);
    if (state.done) return [];
    return [{ type, data: { ...command.data, at: context.now.toISOString() } } as OperationEvent];
  },
  evolve: () => ({ done: true }),
};
