import type { EventData, Projection } from '../projection';

/** Shifts as the lists show them, and the transfer requests of each. */
export const shiftsProjection: Projection = {
  name: 'shifts',
  version: 1,
  tables: ['shifts', 'transfer_requests'],
  schema: (t) => `
    create table ${t('shifts')} (
      id text primary key,
      location text not null,
      date text not null,
      start_time text not null,
      end_time text not null,
      type text not null,
      requirements text,
      notes text,
      priority text not null,
      status text not null,
      assigned_user_id text,
      created_by_id text,
      needs_approval boolean not null default false,
      approved boolean not null default false,
      drop_requested boolean not null default false,
      drop_requested_at timestamptz,
      drop_approved boolean not null default false,
      transfer_requested boolean not null default false,
      hours_worked int,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index on ${t('shifts')} (date, start_time);
    create index on ${t('shifts')} (assigned_user_id);
    create table ${t('transfer_requests')} (
      id text primary key,
      shift_id text not null,
      from_user_id text not null,
      to_user_id text not null,
      status text not null,
      message text,
      requested_at timestamptz not null,
      responded_at timestamptz
    );
    create index on ${t('transfer_requests')} (to_user_id);
    create index on ${t('transfer_requests')} (from_user_id);`,

  async apply(tx, event, t) {
    const d = event.data as EventData;
    const shifts = tx(t('shifts'));
    const transfers = tx(t('transfer_requests'));
    const at = d.at as string;
    const reopen = tx`status = priority, assigned_user_id = null, needs_approval = false, approved = false,
      drop_requested = false, drop_requested_at = null`;
    switch (event.type) {
      case 'ShiftPosted':
        if (d.testData) return;
        await tx`insert into ${shifts} (id, location, date, start_time, end_time, type, requirements, notes, priority, status,
            created_by_id, created_at, updated_at)
          values (${d.shiftId}, ${d.location}, ${d.date}, ${d.startTime}, ${d.endTime}, ${d.type}, ${d.requirements},
            ${d.notes}, ${d.priority}, ${d.priority}, ${d.createdById}, ${at}, ${at})`;
        return;
      case 'ShiftUpdated':
        await tx`update ${shifts} set location = ${d.location}, date = ${d.date}, start_time = ${d.startTime},
            end_time = ${d.endTime}, type = ${d.type}, requirements = ${d.requirements}, notes = ${d.notes},
            priority = ${d.priority}, status = case when assigned_user_id is null then ${d.priority} else status end,
            updated_at = ${at}
          where id = ${d.shiftId}`;
        return;
      case 'ShiftDeleted':
        await tx`delete from ${shifts} where id = ${d.shiftId}`;
        await tx`delete from ${transfers} where shift_id = ${d.shiftId}`;
        return;
      case 'ShiftClaimed':
        await tx`update ${shifts} set status = 'pending', assigned_user_id = ${d.userId}, needs_approval = true,
            approved = false, drop_approved = false, updated_at = ${at} where id = ${d.shiftId}`;
        return;
      case 'ClaimApproved':
        await tx`update ${shifts} set status = 'approved', needs_approval = false, approved = true, updated_at = ${at}
          where id = ${d.shiftId}`;
        return;
      case 'ClaimDenied':
        await tx`update ${shifts} set ${reopen}, updated_at = ${at} where id = ${d.shiftId}`;
        return;
      case 'ShiftAssigned':
        await tx`update ${shifts} set status = 'approved', assigned_user_id = ${d.userId}, needs_approval = false,
            approved = true, drop_requested = false, drop_requested_at = null, drop_approved = false, updated_at = ${at}
          where id = ${d.shiftId}`;
        return;
      case 'DropRequested':
        await tx`update ${shifts} set drop_requested = true, drop_requested_at = ${at}, drop_approved = false,
            updated_at = ${at} where id = ${d.shiftId}`;
        return;
      case 'DropApproved':
        await tx`update ${shifts} set ${reopen}, drop_approved = true, updated_at = ${at} where id = ${d.shiftId}`;
        return;
      case 'DropDenied':
        await tx`update ${shifts} set drop_requested = false, drop_requested_at = null, updated_at = ${at}
          where id = ${d.shiftId}`;
        return;
      case 'TransferRequested':
        await tx`insert into ${transfers} (id, shift_id, from_user_id, to_user_id, status, message, requested_at)
          values (${d.transferId}, ${d.shiftId}, ${d.fromUserId}, ${d.toUserId}, 'pending', ${d.message}, ${at})`;
        await tx`update ${shifts} set transfer_requested = true, updated_at = ${at} where id = ${d.shiftId}`;
        return;
      case 'TransferAccepted':
      case 'TransferDeclined':
      case 'TransferCancelled': {
        const status = {
          TransferAccepted: 'accepted',
          TransferDeclined: 'declined',
          TransferCancelled: 'cancelled',
        }[event.type];
        await tx`update ${transfers} set status = ${status}, responded_at = ${at} where id = ${d.transferId}`;
        if (event.type === 'TransferAccepted') {
          await tx`update ${shifts} set assigned_user_id = ${d.toUserId}, drop_requested = false, drop_requested_at = null
            where id = ${d.shiftId}`;
        }
        await tx`update ${shifts} set transfer_requested = false, updated_at = ${at} where id = ${d.shiftId}`;
        return;
      }
      case 'ShiftMarkedUrgent':
        await tx`update ${shifts} set priority = ${d.priority},
            status = case when assigned_user_id is null then ${d.priority} else status end, updated_at = ${at}
          where id = ${d.shiftId}`;
        return;
      case 'ShiftCompleted':
        await tx`update ${shifts} set status = 'completed', hours_worked = ${d.hoursWorked}, updated_at = ${at}
          where id = ${d.shiftId}`;
        return;
      case 'HolderRemoved':
        await tx`update ${shifts} set ${reopen}, updated_at = ${at} where id = ${d.shiftId}`;
        return;
      case 'ShiftExpired':
        await tx`update ${shifts} set status = 'expired', assigned_user_id = null, needs_approval = false,
            approved = false, drop_requested = false, drop_requested_at = null, updated_at = ${at}
          where id = ${d.shiftId}`;
        return;
    }
  },
};
