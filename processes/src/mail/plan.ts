import { inCategory } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { planCredentialMails } from './credential-mails';
import { planOperationMails } from './operation-mails';
import { queueMail } from './outbox';
import { planOutreachMails } from './outreach-mails';
import type { MailPlannerDeps } from './planner-deps';
import { addressesOf, audienceAddresses } from './recipients';
import { ruleFor, shiftAt, shiftInfo } from './rules';
import { type Mail, mail } from './templates';

/**
 * Whether an event can have mail at all, from the event alone: one that cannot (a reservation on a
 * schedule, a session) is passed over without reading anything.
 */
export function mayMail(event: RecordedEvent): boolean {
  if (inCategory(event.streamId, 'operation')) return true;
  if (event.type === 'CredentialExpiryNoticed' || event.type === 'ShiftEscalated') return true;
  if (!ruleFor(event.type, event.data) || !inCategory(event.streamId, 'shift')) return false;
  return !event.data.testData || event.type === 'ShiftPosted';
}

/** Plans the mails of one event: a delivery row per recipient, idempotent by (event, recipient). */
export async function planMails(
  deps: MailPlannerDeps,
  tx: TransactionSql,
  event: RecordedEvent,
): Promise<number> {
  if (!mayMail(event)) return 0;
  if (inCategory(event.streamId, 'operation')) return planOperationMails(deps, tx, event);
  if (event.type === 'CredentialExpiryNoticed') return planCredentialMails(deps, tx, event);
  if (event.type === 'ShiftEscalated') return planOutreachMails(deps, tx, event);
  const rule = ruleFor(event.type, event.data)!;
  const shift = await shiftAt(deps.store, event.streamId, event.revision);
  const data = { ...(event.data as Record<string, string>), holderId: shift.assignedUserId ?? '' };
  if (event.type === 'ShiftUpdated' && !shift.assignedUserId) return 0;
  const info = shiftInfo(shift);
  const [audience, kind, subject, lead] = rule;
  // Who gets it first: a message nobody is to receive is not written.
  if (event.data.testData) {
    // A bulk-test shift is announced to the developer who ran the test, never to staff.
    const recipients = await addressesOf(tx, { userIds: [event.metadata.actorId] }, false);
    if (recipients.length === 0) return 0;
    const message = mail(kind, `[Test] ${subject(info)}`, lead, info, deps.publicUrl);
    return queueMail(deps, tx, event.id, recipients, message);
  }
  const recipients = await audienceAddresses(tx, audience(data), shift.location);
  if (recipients.length === 0) return 0;
  const message: Mail = mail(kind, subject(info), lead, info, deps.publicUrl);
  return queueMail(deps, tx, event.id, recipients, message);
}
