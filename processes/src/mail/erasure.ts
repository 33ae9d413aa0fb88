import type { Erasure } from '@shiftcover/eventstore';
import type { Sql } from 'postgres';
import { escapeHtml } from './templates';

/** What an erased person's name, username and addresses read as in mail others were sent. */
const ERASED_NAME = 'Deleted user';

const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** A PostgreSQL regular expression matching `literal` exactly (case is ignored by the 'gi' flag). */
const literally = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Mail that names a person being erased: deliveries to their addresses are deleted (sent or not),
 * and their name, username and addresses in what others were sent (the completed-shifts report
 * names staff) read "Deleted user" in subject, bodies and attachments.
 */
export function eraseFromMail(sql: Sql) {
  return async ({ personal }: Erasure): Promise<void> => {
    if (!personal) return;
    const addresses = [personal.email, personal.notificationEmail].filter(text);
    const fullName = [personal.firstName, personal.lastName].filter(text).join(' ');
    const terms = [...new Set([fullName, personal.username, ...addresses].filter(text))];
    await sql.begin(async (tx) => {
      await tx`delete from email_deliveries
        where lower(recipient) = any(${addresses.map((a) => a.trim().toLowerCase())})`;
      for (const term of terms) {
        const plain = literally(term);
        const html = literally(escapeHtml(term));
        const json = literally(JSON.stringify(term).slice(1, -1));
        await tx`update email_deliveries set
            subject = regexp_replace(subject, ${plain}, ${ERASED_NAME}, 'gi'),
            text_body = regexp_replace(text_body, ${plain}, ${ERASED_NAME}, 'gi'),
            html_body = regexp_replace(regexp_replace(html_body, ${plain}, ${ERASED_NAME}, 'gi'), ${html}, ${ERASED_NAME}, 'gi'),
            attachments = regexp_replace(attachments::text, ${json}, ${ERASED_NAME}, 'gi')::jsonb
          where subject ~* ${plain} or text_body ~* ${plain} or html_body ~* ${plain} or html_body ~* ${html}
            or attachments::text ~* ${json}`;
      }
    });
  };
}
