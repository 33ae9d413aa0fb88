import { type OutreachNotice, outreachWording, type ShiftEvent, shiftLabel } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { queueMail } from './outbox';
import type { MailPlannerDeps } from './planner-deps';
import { addressesOf } from './recipients';
import { shiftAt, shiftInfo } from './rules';
import { mail } from './templates';

type Escalated = Extract<ShiftEvent, { type: 'ShiftEscalated' }>['data'];

/**
 * A step of the escalation ladder (docs/product.md §11) is mailed to exactly the notices the step
 * recorded: each person told by e-mail at their own address, or the mailing list.
 */
export async function planOutreachMails(
  deps: MailPlannerDeps,
  tx: TransactionSql,
  event: RecordedEvent,
): Promise<number> {
  const { step, notices } = event.data as unknown as Escalated;
  const by = (channel: OutreachNotice['channel']) => notices.filter((n) => n.channel === channel);
  const people = by('email').flatMap((n) => (n.userId ? [n.userId] : []));
  const recipients = people.length ? await addressesOf(tx, { userIds: people }, false) : [];
  if (by('mailing_list').length) {
    const [mode] = await tx<{ mailing_list_address: string | null }[]>`
      select mailing_list_address from rm_system_config where key = 'email-notification-mode'`;
    if (mode?.mailing_list_address) recipients.push(mode.mailing_list_address);
  }
  if (recipients.length === 0) return 0;
  const shift = await shiftAt(deps.store, event.streamId, event.revision);
  const info = shiftInfo(shift);
  const { title, text } = outreachWording(step, shiftLabel(shift));
  const message = mail(
    'shift_outreach',
    `${title}: ${info.location}, ${info.date}`,
    text,
    info,
    deps.publicUrl,
  );
  return queueMail(deps, tx, event.id, recipients, message);
}
