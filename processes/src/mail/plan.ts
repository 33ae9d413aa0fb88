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

/** Plans the mails of one event: a delivery row per recipient, idempotent by (event, recipient). */
export async function planMails(
  deps: MailPlannerDeps,
  tx: TransactionSql,
  event: RecordedEvent,
): Promise<number> {
  if (inCategory(event.streamId, 'operation')) return planOperationMails(deps, tx, event);
  if (event.type === 'CredentialExpiryNoticed') return planCredentialMails(deps, tx, event);
  if (event.type === 'ShiftEscalated') return planOutreachMails(deps, tx, event);
  const rule = ruleFor(event.type, event.data);
  if (!rule || !inCategory(event.streamId, 'shift')) return 0;
  if (event.data.testData && event.type !== 'ShiftPosted') return 0;
  const shift = await shiftAt(deps.store, event.streamId, event.revision);
  const data = { ...(event.data as Record<string, string>), holderId: shift.assignedUserId ?? '' };
  if (event.type === 'ShiftUpdated' && !shift.assignedUserId) return 0;
  const info = shiftInfo(shift);
  const [audience, kind, subject, lead] = rule;
  if (event.data.testData) {
    // A bulk-test shift is announced to the developer who ran the test, never to staff.
    const message = mail(kind, `[Test] ${subject(info)}`, lead, info, deps.publicUrl);
    const recipients = await addressesOf(tx, { userIds: [event.metadata.actorId] }, false);
    return queueMail(deps, tx, event.id, recipients, message);
  }
  const message: Mail = mail(kind, subject(info), lead, info, deps.publicUrl);
  return queueMail(deps, tx, event.id, await audienceAddresses(tx, audience(data), shift.location), message);
}
