import { formatShiftDate, timeRangeLabel } from '@shiftcover/domain';
import type { EventData, Projection } from '../projection';
import { type ShiftFacts, shiftFacts, shiftFactsSchema, trackShiftFacts } from './shift-facts';

type Kind = 'shift_claim' | 'shift_approval' | 'urgent_coverage' | 'reminder' | 'shift_available';
interface Note {
  to: string | 'all-staff';
  type: Kind;
  title: string;
  message: string;
}

const label = (s?: ShiftFacts) =>
  s
    ? `${s.type} shift at ${s.location} on ${formatShiftDate(s.date)}, ${timeRangeLabel(s.start_time, s.end_time)}`
    : 'a shift';

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
  const l = label(shift);
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

/** In-app notifications (SPEC §3 notifications) for the people each event concerns. */
export const notificationsProjection: Projection = {
  name: 'notifications',
  version: 1,
  tables: ['notifications', 'notification_shift_facts', 'notification_staff'],
  schema: (t) => `
    ${shiftFactsSchema(t('notification_shift_facts'))}
    create table ${t('notification_staff')} (id text primary key);
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
