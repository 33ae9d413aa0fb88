import { formatShiftDate } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import { queueMail } from './outbox';
import type { MailPlannerDeps } from './planner-deps';
import { audienceAddresses } from './recipients';
import { compose } from './templates';

interface ExpiryNotice {
  userId: string;
  name: string;
  expiresOn: string;
  daysBefore: number;
}

/**
 * A credential's last day is near (docs/product.md §10.1): its holder and every admin are told, in
 * the e-mail mode in force, once for each notice.
 */
export async function planCredentialMails(
  deps: MailPlannerDeps,
  tx: TransactionSql,
  event: RecordedEvent,
): Promise<number> {
  const notice = event.data as unknown as ExpiryNotice;
  const people = await tx<
    { id: string; role: string; first_name: string | null; last_name: string | null }[]
  >`
    select id, role, first_name, last_name from rm_users where id = ${notice.userId} or role = 'admin'`;
  const holder = people.find((p) => p.id === notice.userId);
  if (!holder) return 0;
  const whose = holder.first_name ? `${holder.first_name} ${holder.last_name}'s` : 'A';
  const lastDay = formatShiftDate(notice.expiresOn);
  const message = compose(
    'credential_expiry',
    `Credential expiring: ${notice.name} on ${lastDay}`,
    [
      `${whose} ${notice.name} credential is valid through ${lastDay}, ${notice.daysBefore} days from now.`,
      'Shifts that need it cannot be taken once it has expired: renew it before then.',
    ],
    deps.publicUrl,
  );
  const recipients = await audienceAddresses(tx, { userIds: people.map((p) => p.id) }, '');
  return queueMail(deps, tx, event.id, recipients, message);
}
