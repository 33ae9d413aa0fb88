import type { Sql } from 'postgres';
import type { Attachment } from './templates';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: Attachment[];
  /** nodemailer's `messageId`, stable per delivery: a mail resent after a crash is known as the same. */
  messageId: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

const MAX_ATTEMPTS = 5;
const BACKOFF_MS = [60_000, 5 * 60_000, 25 * 60_000, 2 * 3_600_000];

interface Due {
  id: bigint;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attachments: Attachment[];
  attempts: number;
}

/** The Message-ID of a delivery, in the sender's domain as RFC 5322 recommends. */
function deliveryMessageId(id: bigint, from: string): string {
  const domain = /@([^\s@<>]+)>?\s*$/.exec(from)?.[1] ?? 'shiftcover';
  return `<delivery-${id}@${domain}>`;
}

/**
 * Sends queued mails that are due. A failed send is retried with growing pauses and, after five
 * attempts, parked as failed where developers can see it. Rows are claimed with SKIP LOCKED, so
 * two senders never send the same mail. A crash between the send and its record sends that mail
 * again, under the same Message-ID.
 */
export async function deliverDue(
  sql: Sql,
  transport: MailTransport,
  from: string,
  now = new Date(),
): Promise<number> {
  let sent = 0;
  for (;;) {
    const handled = await sql.begin(async (tx) => {
      const [due] = await tx<Due[]>`
        select id, recipient, subject, text_body, html_body, attachments, attempts from email_deliveries
        where status = 'queued' and next_attempt_at <= ${now}
        order by id limit 1 for update skip locked`;
      if (!due) return false;
      try {
        await transport.send({
          from,
          to: due.recipient,
          subject: due.subject,
          text: due.text_body,
          html: due.html_body,
          ...(due.attachments.length ? { attachments: due.attachments } : {}),
          messageId: deliveryMessageId(due.id, from),
        });
        await tx`update email_deliveries set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null where id = ${due.id.toString()}`;
        sent += 1;
      } catch (error) {
        const attempts = due.attempts + 1;
        const parked = attempts >= MAX_ATTEMPTS;
        const retryAt = new Date(now.getTime() + (BACKOFF_MS[attempts - 1] ?? BACKOFF_MS.at(-1)!));
        await tx`update email_deliveries set attempts = ${attempts}, last_error = ${String((error as Error).message ?? error)},
            status = ${parked ? 'failed' : 'queued'}, next_attempt_at = ${retryAt} where id = ${due.id.toString()}`;
      }
      return true;
    });
    if (!handled) return sent;
  }
}
