import type { RecordedEvent } from '@shiftcover/eventstore';
import type { TransactionSql } from 'postgres';
import type { EventData, Projection, TableName } from '../projection';
import { adminsOfResidence } from './residence-admins';
import { factsLabel, type ShiftFacts, shiftFacts, shiftFactsSchema, trackShiftFacts } from './shift-facts';

type Kind = 'shift_claim' | 'shift_approval' | 'urgent_coverage' | 'reminder' | 'shift_available';
interface Note {
  to: string | 'all-staff';
  type: Kind;
  title: string;
  message: string;
}

/** Who hears about each event in the app (a field of the event naming them), and what they read. */
const personal: Record<
  string,
  [recipient: string, type: Kind, title: string, message: (l: string) => string]
> = {
  ClaimApproved: [
    'userId',
    'shift_approval',
    'Shift approved',
    (l) => `Your claim on the ${l} was approved.`,
  ],
  ClaimDenied: [
    'userId',
    'shift_approval',
    'Claim not approved',
    (l) => `Your claim on the ${l} was not approved.`,
  ],
  ShiftAssigned: [
    'userId',
    'shift_approval',
    'Shift assigned to you',
    (l) => `You have been assigned the ${l}.`,
  ],
  DropApproved: ['userId', 'shift_approval', 'Drop approved', (l) => `You are no longer on the ${l}.`],
  DropDenied: ['userId', 'shift_approval', 'Drop not approved', (l) => `You are still on the ${l}.`],
  TransferRequested: [
    'toUserId',
    'shift_claim',
    'Shift transfer request',
    (l) => `A colleague asks you to take the ${l}.`,
  ],
  TransferAccepted: [
    'fromUserId',
    'shift_claim',
    'Transfer accepted',
    (l) => `Your transfer of the ${l} was accepted.`,
  ],
  TransferDeclined: [
    'fromUserId',
    'shift_claim',
    'Transfer declined',
    (l) => `Your transfer of the ${l} was declined.`,
  ],
  HolderReminded: ['userId', 'reminder', 'Shift reminder', (l) => `Reminder: you are on the ${l}.`],
  ShiftDeleted: [
    'assignedUserId',
    'shift_approval',
    'Shift cancelled',
    (l) => `The ${l} you held was cancelled.`,
  ],
};

function notesFor(type: string, d: EventData, shift?: ShiftFacts): Note[] {
  if (d.testData) return [];
  const l = factsLabel(shift);
  if (type === 'ShiftPosted' && d.priority === 'open') {
    return [
      {
        to: 'all-staff',
        type: 'shift_available',
        title: 'New shift available',
        message: `The ${l} is open to claim.`,
      },
    ];
  }
  if (type === 'ShiftPosted' || type === 'ShiftMarkedUrgent') {
    const message = `The ${l} needs ${d.priority} coverage.`;
    return [{ to: 'all-staff', type: 'urgent_coverage', title: 'Urgent coverage needed', message }];
  }
  const rule = personal[type];
  if (!rule || !d[rule[0]]) return [];
  const [recipient, kind, title, message] = rule;
  return [{ to: d[recipient], type: kind, title, message: message(l) }];
}

/** Keeps who the admins are and the residences they are assigned to, by name. */
async function trackAdmins(tx: TransactionSql, event: RecordedEvent, t: TableName) {
  const d = event.data as EventData;
  const admins = tx(t('notification_admins'));
  const residences = tx(t('notification_residences'));
  switch (event.type) {
    case 'UserRegistered':
    case 'UserUpdated':
      if (d.role === 'admin') {
        await tx`insert into ${admins} (id, residence_id) values (${d.userId}, ${d.assignedResidenceId ?? null})
          on conflict (id) do nothing`;
      } else await tx`delete from ${admins} where id = ${d.userId}`;
      return;
    case 'ResidenceAssigned':
      await tx`update ${admins} set residence_id = ${d.residenceId} where id = ${d.userId}`;
      return;
    case 'UserDeleted':
      await tx`delete from ${admins} where id = ${d.userId}`;
      return;
    case 'ResidenceCreated':
    case 'ResidenceUpdated':
      await tx`insert into ${residences} (id, name) values (${d.residenceId}, ${d.name})
        on conflict (id) do update set name = excluded.name`;
      return;
    case 'ResidenceDeleted':
      await tx`delete from ${residences} where id = ${d.residenceId}`;
  }
}

/**
 * A shift that lost its holder is news for the admins of its residence (every admin when none is
 * assigned there), as its e-mail is.
 */
async function tellAdmins(
  tx: TransactionSql,
  event: RecordedEvent,
  t: TableName,
  shift: ShiftFacts | undefined,
) {
  const d = event.data as EventData;
  const admins = tx(t('notification_admins'));
  const residences = tx(t('notification_residences'));
  const location = shift?.location ?? '';
  const message = `The ${factsLabel(shift)} is open again: the person on it no longer has an account.`;
  await tx`insert into ${tx(t('notifications'))} (id, user_id, title, message, type, shift_id, created_at)
    select ${`${event.id}:0:`} || a.id, a.id, 'Shift reopened', ${message}, 'shift_available', ${d.shiftId},
      ${d.at ?? event.recordedAt}
    from (${adminsOfResidence(tx, admins, residences, location)}) a`;
}

/** In-app notifications (docs/product.md §3 notifications) for the people each event concerns. */
export const notificationsProjection: Projection = {
  name: 'notifications',
  version: 2,
  tables: [
    'notifications',
    'notification_shift_facts',
    'notification_staff',
    'notification_admins',
    'notification_residences',
  ],
  schema: (t) => `
    ${shiftFactsSchema(t('notification_shift_facts'))}
    create table ${t('notification_staff')} (id text primary key);
    create table ${t('notification_admins')} (id text primary key, residence_id text);
    create table ${t('notification_residences')} (id text primary key, name text not null);
    create table ${t('notifications')} (
      id text primary key,
      user_id text not null,
      title text not null,
      message text not null,
      type text not null,
      shift_id text,
      read boolean not null default false,
      created_at timestamptz not null
    );
    create index on ${t('notifications')} (user_id, created_at desc);`,

  async apply(tx, event, t) {
    const d = event.data as EventData;
    const staff = tx(t('notification_staff'));
    const notifications = tx(t('notifications'));
    await trackShiftFacts(tx, event, t('notification_shift_facts'));
    await trackAdmins(tx, event, t);
    if (event.type === 'UserRegistered' || event.type === 'UserUpdated') {
      if (d.role === 'staff') await tx`insert into ${staff} (id) values (${d.userId}) on conflict do nothing`;
      else await tx`delete from ${staff} where id = ${d.userId}`;
      return;
    }
    if (event.type === 'UserDeleted') {
      await tx`delete from ${staff} where id = ${d.userId}`;
      await tx`delete from ${notifications} where user_id = ${d.userId}`;
      return;
    }
    if (event.type === 'NotificationsRead') {
      if (d.notificationIds === null)
        await tx`update ${notifications} set read = true where user_id = ${d.userId}`;
      else
        await tx`update ${notifications} set read = true where user_id = ${d.userId} and id = any(${d.notificationIds})`;
      return;
    }
    const shift = d.shiftId ? await shiftFacts(tx, t('notification_shift_facts'), d.shiftId) : undefined;
    if (event.type === 'HolderRemoved' && !d.testData) await tellAdmins(tx, event, t, shift);
    for (const [i, note] of notesFor(event.type, d, shift).entries()) {
      const at = d.at ?? event.recordedAt;
      if (note.to === 'all-staff') {
        await tx`insert into ${notifications} (id, user_id, title, message, type, shift_id, created_at)
          select ${`${event.id}:${i}:`} || id, id, ${note.title}, ${note.message}, ${note.type}, ${d.shiftId ?? null}, ${at}
          from ${staff}`;
      } else {
        await tx`insert into ${notifications} (id, user_id, title, message, type, shift_id, created_at)
          values (${`${event.id}:${i}:${note.to}`}, ${note.to}, ${note.title}, ${note.message}, ${note.type},
            ${d.shiftId ?? null}, ${at})`;
      }
    }
  },
};
