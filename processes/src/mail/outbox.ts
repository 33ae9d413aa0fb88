import type { TransactionSql } from 'postgres';
import type { MailPlannerDeps } from './planner-deps';
import type { Mail } from './templates';

/** One delivery per recipient; an event planned again adds nothing. */
export async function queueMail(
  deps: Pick<MailPlannerDeps, 'smtpConfigured'>,
  tx: TransactionSql,
  eventId: string,
  recipients: string[],
  message: Mail,
): Promise<number> {
  const status = deps.smtpConfigured ? 'queued' : 'outbox';
  for (const recipient of recipients) {
    await tx`insert into email_deliveries (event_id, recipient, kind, subject, text_body, html_body, attachments, status)
      values (${eventId}, ${recipient}, ${message.kind}, ${message.subject}, ${message.text}, ${message.html},
        ${tx.json((message.attachments ?? []) as never)}, ${status})
      on conflict (event_id, recipient) do nothing`;
  }
  return recipients.length;
}
