import { adminsOfResidence } from '@shiftcover/projections';
import type { TransactionSql } from 'postgres';
import type { Audience } from './rules';

interface Address {
  address: string;
}

/**
 * Named people's own addresses whatever the mode: reports, test mails and resends are meant for
 * them, not for the shared list. `wanting` keeps only those with e-mail notifications on.
 */
export async function addressesOf(
  tx: TransactionSql,
  who: { userIds: string[] } | 'super-admins',
  wanting = true,
): Promise<string[]> {
  const rows = await tx<Address[]>`
    select coalesce(notification_email, email) as address from rm_users
    where coalesce(notification_email, email) is not null
      ${wanting ? tx`and email_notifications_enabled` : tx``}
      ${who === 'super-admins' ? tx`and role = 'admin' and super_admin` : tx`and id = any(${who.userIds})`}
    order by id`;
  return [...new Set(rows.map((r) => r.address))];
}

type Mode = { value: string; mailing_list_address: string | null } | undefined;

/**
 * The notification mode, read once per transaction: a batch of events planned together (see
 * `emailHandler`) is planned as of one moment of the read models, the one it waited for.
 */
const modes = new WeakMap<TransactionSql, Promise<Mode>>();

function modeIn(tx: TransactionSql): Promise<Mode> {
  let mode = modes.get(tx);
  if (!mode) {
    mode = tx<NonNullable<Mode>[]>`
      select value, mailing_list_address from rm_system_config where key = 'email-notification-mode'`.then(
      ([row]) => row,
    );
    modes.set(tx, mode);
  }
  return mode;
}

/**
 * The addresses of the audiences that do not depend on the event (all staff, a residence's admins),
 * looked up once per transaction, as the mode is: a batch of claims at one residence, or of shifts
 * posted together, mails the same people, and asks who they are once.
 */
const sharedAudiences = new WeakMap<TransactionSql, Map<string, Promise<string[]>>>();

function sharedIn(tx: TransactionSql, key: string, look: () => Promise<string[]>): Promise<string[]> {
  let looked = sharedAudiences.get(tx);
  if (!looked) {
    looked = new Map();
    sharedAudiences.set(tx, looked);
  }
  let addresses = looked.get(key);
  if (!addresses) {
    addresses = look();
    looked.set(key, addresses);
  }
  return addresses;
}

/** Where mail goes: each person's notification address when they want mail, or the shared list. */
export async function audienceAddresses(
  tx: TransactionSql,
  audience: Audience,
  location: string,
): Promise<string[]> {
  const mode = await modeIn(tx);
  if (mode?.value === 'mailing_list') return mode.mailing_list_address ? [mode.mailing_list_address] : [];
  const wanted = tx`email_notifications_enabled and coalesce(notification_email, email) is not null`;
  const addresses = async (rows: Promise<Address[]>) => [...new Set((await rows).map((r) => r.address))];
  if (audience === 'all-staff') {
    return [
      ...(await sharedIn(tx, 'all-staff', () =>
        addresses(
          tx<Address[]>`
            select coalesce(notification_email, email) as address from rm_users where role = 'staff' and ${wanted}`,
        ),
      )),
    ];
  }
  if ('adminsOf' in audience) {
    // The admins assigned to the shift's residence, or every admin when none is.
    const admins = tx`(select id, assigned_residence_id as residence_id from rm_users where role = 'admin')`;
    return [
      ...(await sharedIn(tx, `admins-of:${location}`, () =>
        addresses(
          tx<Address[]>`
            select coalesce(notification_email, email) as address from rm_users
            where id in (${adminsOfResidence(tx, admins, tx('rm_residences'), location)}) and ${wanted}`,
        ),
      )),
    ];
  }
  if (audience.userIds.length === 0) return [];
  return addresses(
    tx<Address[]>`
      select coalesce(notification_email, email) as address from rm_users
      where id = any(${audience.userIds}) and ${wanted}`,
  );
}
