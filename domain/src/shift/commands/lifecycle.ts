import type { CommandContext } from '../../shared/decider';
import { reject } from '../../shared/errors';
import type { ShiftEvent } from '../events';
import { COMPLETION_DELAY_HOURS, HOUR_MS, URGENT_REOPEN_HOURS } from '../rules';
import { pendingTransfer, type ShiftState } from '../state';
import { cancelPendingTransfer, requireAdmin, type ShiftCommandOf, timing } from './guards';

export function completeShift(
  command: ShiftCommandOf<'CompleteShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'editShift');
  if (state.assignedUserId === null || !state.approved) {
    reject('not_approved', 'Only an assigned, approved shift can be completed');
  }
  const { interval } = timing(state, context);
  if (context.now.getTime() < interval.end.getTime() + COMPLETION_DELAY_HOURS * HOUR_MS) {
    reject('too_early_to_complete', 'A shift completes 1 hour after its end');
  }
  const hoursWorked = Math.round((interval.end.getTime() - interval.start.getTime()) / 60_000);
  const { shiftId } = command.data;
  const at = context.now.toISOString();
  return [
    ...cancelPendingTransfer(state, at),
    { type: 'ShiftCompleted', data: { shiftId, userId: state.assignedUserId, hoursWorked, at } },
  ];
}

export function expireShift(
  command: ShiftCommandOf<'ExpireShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'editShift');
  if (state.approved) reject('already_exists', 'This shift is filled');
  if (!timing(state, context).ended) reject('not_ended', 'Only a shift that has ended can expire');
  const { shiftId } = command.data;
  return [
    {
      type: 'ShiftExpired',
      data: { shiftId, pendingUserId: state.assignedUserId, at: context.now.toISOString() },
    },
  ];
}

/** Lets a person go from a shift they have not started: held, claimed, or offered to or by them. */
export function releaseHolder(
  command: ShiftCommandOf<'ReleaseHolder'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'manageUsers');
  const { shiftId, userId } = command.data;
  const { interval, started } = timing(state, context);
  // What has started stays as it was: it is completed or expires like any other shift.
  if (started) return [];
  const at = context.now.toISOString();
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

export function remindHolder(
  command: ShiftCommandOf<'RemindHolder'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'editShift');
  const holder = state.assignedUserId;
  if (holder === null || !state.approved) reject('not_approved', 'Only an approved shift has a holder');
  if (timing(state, context).started) reject('shift_started', 'This shift has already started');
  if (state.remindedUserIds.includes(holder)) return [];
  const { shiftId } = command.data;
  return [{ type: 'HolderReminded', data: { shiftId, userId: holder, at: context.now.toISOString() } }];
}
