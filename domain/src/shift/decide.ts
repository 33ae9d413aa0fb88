import { actorCan, isAssignable, isTransferRecipient } from '../permissions/permissions';
import { requireActorCan } from '../permissions/refusals';
import { actorIdOf, type CommandContext, type Decider } from '../shared/decider';
import { reject } from '../shared/errors';
import { shiftInterval } from '../time/eastern';
import type { ShiftEvent } from './events';
import { isClaimable } from './rules';
import { schedulingProblem } from './scheduling';
import type { ShiftCommand, ShiftDetails } from './schemas';
import { evolveShift, initialShiftState, pendingTransfer, type ShiftState } from './state';

const HOUR_MS = 60 * 60 * 1000;
/** SPEC §9: drop requests need at least 4 hours notice. */
export const DROP_NOTICE_HOURS = 4;
/** SPEC §9: shifts complete 1 hour after their end. */
export const COMPLETION_DELAY_HOURS = 1;
/** The holder of an approved shift is reminded (e-mail and in-app) this long before it starts. */
export const REMINDER_LEAD_HOURS = 12;
/** A shift that loses its holder this close to its start needs cover urgently. */
export const URGENT_REOPEN_HOURS = 48;

function actorId(context: CommandContext): string {
  return actorIdOf(context.actor);
}

function requireUser(context: CommandContext): string {
  if (context.actor.kind !== 'user') reject('forbidden', 'This action needs a signed-in user');
  return context.actor.userId;
}

function requireAdmin(context: CommandContext, capability: Parameters<typeof actorCan>[1]): void {
  requireActorCan(context.actor, capability);
}

function requireLive(state: ShiftState): void {
  if (!state.exists || state.deleted) reject('not_found', 'Shift not found');
  if (state.status === 'completed')
    reject('already_completed', 'This shift has been completed and can no longer change');
  if (state.status === 'expired')
    reject('already_completed', 'This shift has ended unfilled and can no longer change');
}

function checkSchedulable(details: ShiftDetails, context: CommandContext): void {
  const problem = schedulingProblem(details, context.now);
  if (problem) reject('invalid', problem);
}

function facts(details: ShiftDetails) {
  return {
    location: details.location.trim(),
    date: details.date,
    startTime: details.startTime,
    endTime: details.endTime,
    type: details.type,
    priority: details.status,
    requirements: details.requirements ?? null,
    notes: details.notes ?? null,
  };
}

/** Pending transfers end when the shift leaves its sender's hands some other way. */
function cancelPendingTransfer(state: ShiftState, at: string): ShiftEvent[] {
  const transfer = pendingTransfer(state);
  if (!transfer) return [];
  const { transferId, fromUserId, toUserId } = transfer;
  return [
    { type: 'TransferCancelled', data: { shiftId: state.shiftId, transferId, fromUserId, toUserId, at } },
  ];
}

export function decideShift(command: ShiftCommand, state: ShiftState, context: CommandContext): ShiftEvent[] {
  const at = context.now.toISOString();
  const shiftId = command.data.shiftId;

  if (command.type === 'PostShift') {
    requireAdmin(context, 'createShift');
    if (state.exists) reject('already_exists', 'Shift already exists');
    checkSchedulable(command.data, context);
    if (command.data.testData && !actorCan(context.actor, 'developerTools'))
      reject('forbidden', 'Only developers can create test shifts');
    const test = command.data.testData ? { testData: true as const } : {};
    return [
      {
        type: 'ShiftPosted',
        data: { shiftId, ...facts(command.data), createdById: actorId(context), ...test, at },
      },
    ];
  }

  requireLive(state);
  const interval = shiftInterval(state.date, state.startTime, state.endTime);
  const ended = context.now >= interval.end;
  const started = context.now >= interval.start;

  switch (command.type) {
    case 'UpdateShift': {
      requireAdmin(context, 'editShift');
      const next = facts(command.data);
      const moved =
        next.date !== state.date || next.startTime !== state.startTime || next.endTime !== state.endTime;
      if (moved) checkSchedulable(command.data, context);
      return [{ type: 'ShiftUpdated', data: { shiftId, ...next, at } }];
    }
    case 'DeleteShift':
      requireAdmin(context, 'deleteShift');
      return [
        ...cancelPendingTransfer(state, at),
        {
          type: 'ShiftDeleted',
          data: {
            shiftId,
            assignedUserId: state.assignedUserId,
            ...(state.testData ? { testData: true as const } : {}),
            at,
          },
        },
      ];
    case 'ClaimShift': {
      const userId = requireUser(context);
      if (!isClaimable(state)) reject('not_claimable', 'This shift is no longer available to claim');
      if (ended) reject('shift_started', 'This shift has already ended');
      return [{ type: 'ShiftClaimed', data: { shiftId, userId, at } }];
    }
    case 'ApproveClaim':
    case 'DenyClaim': {
      requireAdmin(context, 'approveClaims');
      if (state.status !== 'pending' || state.assignedUserId === null) {
        reject('not_pending', 'This shift has no claim awaiting approval');
      }
      const userId = state.assignedUserId;
      return command.type === 'ApproveClaim'
        ? [{ type: 'ClaimApproved', data: { shiftId, userId, at } }]
        : [{ type: 'ClaimDenied', data: { shiftId, userId, at } }];
    }
    case 'AssignShift': {
      requireAdmin(context, 'assignShift');
      const { staffId, assigneeRole } = command.data;
      if (!isAssignable({ userId: staffId, role: assigneeRole, superAdmin: false })) {
        reject('invalid_recipient', 'Shifts can only be assigned to staff members');
      }
      if (ended) reject('shift_started', 'This shift has already ended');
      if (state.assignedUserId === staffId && state.approved) return [];
      const previousUserId = state.assignedUserId;
      return [
        ...cancelPendingTransfer(state, at),
        { type: 'ShiftAssigned', data: { shiftId, userId: staffId, previousUserId, at } },
      ];
    }
    case 'RequestDrop': {
      const userId = requireUser(context);
      if (state.assignedUserId !== userId) reject('not_assignee', 'You can only drop shifts assigned to you');
      if (state.dropRequested)
        reject('drop_already_requested', 'A drop has already been requested for this shift');
      if (started) reject('shift_started', 'This shift has already started and cannot be dropped');
      if (interval.start.getTime() - context.now.getTime() < DROP_NOTICE_HOURS * HOUR_MS) {
        reject(
          'insufficient_notice',
          'Cannot drop a shift with less than 4 hours notice. Please contact your administrator.',
        );
      }
      return [{ type: 'DropRequested', data: { shiftId, userId, at } }];
    }
    case 'ApproveDrop':
    case 'DenyDrop': {
      requireAdmin(context, 'approveDrops');
      if (!state.dropRequested || state.assignedUserId === null) {
        reject('drop_not_requested', 'No drop has been requested for this shift');
      }
      const userId = state.assignedUserId;
      return command.type === 'ApproveDrop'
        ? [...cancelPendingTransfer(state, at), { type: 'DropApproved', data: { shiftId, userId, at } }]
        : [{ type: 'DropDenied', data: { shiftId, userId, at } }];
    }
    case 'RequestTransfer': {
      const userId = requireUser(context);
      const { transferId, toUserId, recipientRole, message } = command.data;
      if (state.assignedUserId !== userId)
        reject('not_assignee', 'You can only transfer shifts assigned to you');
      if (!state.approved) reject('not_approved', 'Only approved shifts can be transferred');
      if (started) reject('shift_started', 'This shift has already started and cannot be transferred');
      if (!isTransferRecipient(userId, { userId: toUserId, role: recipientRole, superAdmin: false })) {
        reject('invalid_recipient', 'Shifts can only be transferred to another staff member or admin');
      }
      if (pendingTransfer(state))
        reject('transfer_pending', 'This shift already has a pending transfer request');
      if (state.transfers.some((t) => t.transferId === transferId))
        reject('already_exists', 'Transfer already exists');
      return [
        {
          type: 'TransferRequested',
          data: { shiftId, transferId, fromUserId: userId, toUserId, message: message ?? null, at },
        },
      ];
    }
    case 'AcceptTransfer':
    case 'DeclineTransfer':
    case 'CancelTransfer': {
      const userId = requireUser(context);
      const transfer = state.transfers.find((t) => t.transferId === command.data.transferId);
      if (!transfer) reject('not_found', 'Transfer request not found');
      if (transfer.status !== 'pending')
        reject('transfer_not_pending', 'This transfer request is no longer pending');
      const { transferId, fromUserId, toUserId } = transfer;
      const data = { shiftId, transferId, fromUserId, toUserId, at };
      if (command.type === 'CancelTransfer') {
        if (userId !== fromUserId) reject('not_sender', 'Only the sender can cancel a transfer request');
        return [{ type: 'TransferCancelled', data }];
      }
      if (userId !== toUserId) reject('not_recipient', 'This transfer request was sent to someone else');
      if (command.type === 'DeclineTransfer') return [{ type: 'TransferDeclined', data }];
      if (started) reject('shift_started', 'This shift has already started and cannot be transferred');
      return [{ type: 'TransferAccepted', data }];
    }
    case 'MarkUrgent':
      requireAdmin(context, 'editShift');
      if (state.priority === command.data.priority) return [];
      return [{ type: 'ShiftMarkedUrgent', data: { shiftId, priority: command.data.priority, at } }];
    case 'CompleteShift': {
      requireAdmin(context, 'editShift');
      if (state.assignedUserId === null || !state.approved) {
        reject('not_approved', 'Only an assigned, approved shift can be completed');
      }
      if (context.now.getTime() < interval.end.getTime() + COMPLETION_DELAY_HOURS * HOUR_MS) {
        reject('too_early_to_complete', 'A shift completes 1 hour after its end');
      }
      const hoursWorked = Math.round((interval.end.getTime() - interval.start.getTime()) / 60_000);
      return [
        ...cancelPendingTransfer(state, at),
        { type: 'ShiftCompleted', data: { shiftId, userId: state.assignedUserId, hoursWorked, at } },
      ];
    }
    case 'ExpireShift': {
      requireAdmin(context, 'editShift');
      if (state.approved) reject('already_exists', 'This shift is filled');
      if (!ended) reject('not_ended', 'Only a shift that has ended can expire');
      return [{ type: 'ShiftExpired', data: { shiftId, pendingUserId: state.assignedUserId, at } }];
    }
    case 'ReleaseHolder': {
      requireAdmin(context, 'manageUsers');
      const { userId } = command.data;
      // What has started stays as it was: it is completed or expires like any other shift.
      if (started) return [];
      const transfer = pendingTransfer(state);
      const involved = transfer?.fromUserId === userId || transfer?.toUserId === userId;
      const offers = involved ? cancelPendingTransfer(state, at) : [];
      if (state.assignedUserId !== userId) return offers;
      const soon = interval.start.getTime() - context.now.getTime() < URGENT_REOPEN_HOURS * HOUR_MS;
      return [
        ...offers,
        { type: 'HolderRemoved', data: { shiftId, userId, at } },
        ...(soon && state.priority === 'open'
          ? [{ type: 'ShiftMarkedUrgent' as const, data: { shiftId, priority: 'urgent' as const, at } }]
          : []),
      ];
    }
    case 'RemindHolder': {
      requireAdmin(context, 'editShift');
      const holder = state.assignedUserId;
      if (holder === null || !state.approved) reject('not_approved', 'Only an approved shift has a holder');
      if (started) reject('shift_started', 'This shift has already started');
      if (state.remindedUserIds.includes(holder)) return [];
      return [{ type: 'HolderReminded', data: { shiftId, userId: holder, at } }];
    }
  }
}

export const shiftDecider: Decider<ShiftCommand, ShiftEvent, ShiftState> = {
  decide: decideShift,
  evolve: evolveShift,
  initialState: initialShiftState,
};
