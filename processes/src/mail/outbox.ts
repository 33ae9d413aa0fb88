import type { TransactionSql } from 'postgres';
import type { Delivery, MailPlannerDeps } from './planner-deps';
import type { Mail } from './templates';

/**
 * One delivery per recipient; an event planned again adds nothing. Given an `outbox`, the rows are
 * collected there for the caller to store (`storeDeliveries`), in its order, with others.
 */
export async function queueMail(
  deps: Pick<MailPlannerDeps, 'smtpConfigured' | 'outbox'>,
  tx: TransactionSql,
  eventId: string,
  recipients: string[],
  message: Mail,
): Promise<number> {
  const status = deps.smtpConfigured ? 'queued' : 'outbox';
  const rows = recipients.map(
    (recipient): Delivery => ({
      event_id: eventId,
      recipient,
      kind: message.kind,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      attachments: message.attachments ?? [],
      status,
    }),
  );
  if (deps.outbox) for (const row of rows) deps.outbox.push(row);
  else await storeDeliveries(tx, rows);
  return recipients.length;
}

/** Stores planned deliveries in their order (the sender's), a thousand rows to a statement. */
export async function storeDeliveries(tx: TransactionSql, rows: readonly Delivery[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows
      .slice(i, i + 1000)
      .map((row) => ({ ...row, attachments: tx.json(row.attachments as never) }));
    await tx`insert into email_deliveries ${tx(chunk)} on conflict (event_id, recipient) do nothing`;
  }
}
