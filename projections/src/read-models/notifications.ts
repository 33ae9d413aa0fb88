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

/** Who hears about an event in the app, and what they read. */
function notesFor(type: string, d: EventData, shift?: ShiftFacts): Note[] {
  const l = label(shift);
  switch (type) {
    case 'ShiftPosted':
      return d.priority === 'open'
        ? [
            {
              to: 'all-staff',
              type: 'shift_available',
              title: 'New shift available',
              message: `The ${l} is open to claim.`,
            },
          ]
        : [
            {
              to: 'all-staff',
              type: 'urgent_coverage',
              title: 'Urgent coverage needed',
              message: `The ${l} needs ${d.priority} coverage.`,
            },
          ];
    case 'ShiftMarkedUrgent':
      return [
        {
          to: 'all-staff',
          type: 'urgent_coverage',
          title: 'Urgent coverage needed',
          message: `The ${l} needs ${d.priority} coverage.`,
        },
      ];
    case 'ClaimApproved':
      return [
        {
          to: d.userId,
          type: 'shift_approval',
          title: 'Shift approved',
          message: `Your claim on the ${l} was approved.`,
        },
      ];
    case 'ClaimDenied':
      return [
        {
          to: d.userId,
          type: 'shift_approval',
          title: 'Claim not approved',
          message: `Your claim on the ${l} was not approved.`,
        },
      ];
    case 'ShiftAssigned':
      return [
        {
          to: d.userId,
          type: 'shift_approval',
          title: 'Shift assigned to you',
          message: `You have been assigned the ${l}.`,
        },
      ];
    case 'DropApproved':
      return [
        {
          to: d.userId,
          type: 'shift_approval',
          title: 'Drop approved',
          message: `You are no longer on the ${l}.`,
        },
      ];
    case 'DropDenied':
      return [
        {
          to: d.userId,
          type: 'shift_approval',
          title: 'Drop not approved',
          message: `You are still on the ${l}.`,
        },
      ];
    case 'TransferRequested':
      return [
        {
          to: d.toUserId,
          type: 'shift_claim',
          title: 'Shift transfer request',
          message: `A colleague asks you to take the ${l}.`,
        },
      ];
    case 'TransferAccepted':
      return [
        {
          to: d.fromUserId,
          type: 'shift_claim',
          title: 'Transfer accepted',
          message: `Your transfer of the ${l} was accepted.`,
        },
      ];
    case 'TransferDeclined':
      return [
        {
          to: d.fromUserId,
          type: 'shift_claim',
          title: 'Transfer declined',
          message: `Your transfer of the ${l} was declined.`,
        },
      ];
    case 'ShiftDeleted':
      return d.assignedUserId
        ? [
            {
              to: d.assignedUserId,
              type: 'shift_approval',
              title: 'Shift cancelled',
              message: `The ${l} you held was cancelled.`,
            },
          ]
        : [];
    default:
      return [];
  }
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
