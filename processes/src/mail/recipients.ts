import { AskedTogether } from '@shiftcover/eventstore';
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
 * What a transaction has already looked up, by what it is. A batch of events planned together (see
 * `emailHandler`) is planned as of one moment of the read models, the one it waited for, so what
 * does not depend on the event is read once for the batch: the notification mode, and the
 * audiences that are the same people for every event (all staff, a residence's admins), so that
 * a batch of claims at one residence, or of shifts posted together, asks who they are once; and
 * the gathering of the named people's own addresses.
 */
const lookedUp = new WeakMap<TransactionSql, Map<string, Promise<unknown>>>();

function onceIn<T>(tx: TransactionSql, key: string, look: () => Promise<T>): Promise<T> {
  let looked = lookedUp.get(tx);
  if (!looked) {
    looked = new Map();
    lookedUp.set(tx, looked);
  }
  let found = looked.get(key) as Promise<T> | undefined;
  if (!found) {
    found = look();
    looked.set(key, found);
  }
  return found;
}

const modeIn = (tx: TransactionSql): Promise<Mode> =>
  onceIn(tx, 'mode', async () => {
    const [row] = await tx<NonNullable<Mode>[]>`
      select value, mailing_list_address from rm_system_config where key = 'email-notification-mode'`;
    return row;
  });

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
      ...(await onceIn(tx, 'all-staff', () =>
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
      ...(await onceIn(tx, `admins-of:${location}`, () =>
        addresses(
          tx<Address[]>`
            select coalesce(notification_email, email) as address from rm_users
            where id in (${adminsOfResidence(tx, admins, tx('rm_residences'), location)}) and ${wanted}`,
        ),
      )),
    ];
  }
  if (audience.userIds.length === 0) return [];
  // The people named by the events planned side by side are looked up together (see `AskedTogether`):
  // a batch of approvals asks where each claimant's mail goes in one or two statements, not one each.
  const people = await onceIn(
    tx,
    'people',
    async () =>
      new AskedTogether<string, string>(async (ids) => {
        const rows = await tx<(Address & { id: string })[]>`
        select id, coalesce(notification_email, email) as address from rm_users
        where id = any(${ids}) and email_notifications_enabled
          and coalesce(notification_email, email) is not null`;
        return new Map(rows.map((row) => [row.id, row.address]));
      }),
  );
  const found = await Promise.all(audience.userIds.map((id) => people.of(id)));
  return [...new Set(found.filter((address) => address !== undefined))];
}
