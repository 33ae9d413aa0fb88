import type { CommandContext } from '../../shared/decider';
import { reject } from '../../shared/errors';
import type { ShiftEvent } from '../events';
import { DROP_NOTICE_HOURS, HOUR_MS } from '../rules';
import type { ShiftState } from '../state';
import { cancelPendingTransfer, requireAdmin, requireUser, type ShiftCommandOf, timing } from './guards';

export function requestDrop(
  command: ShiftCommandOf<'RequestDrop'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const userId = requireUser(context);
  const { interval, started } = timing(state, context);
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
  const { shiftId } = command.data;
  return [{ type: 'DropRequested', data: { shiftId, userId, at: context.now.toISOString() } }];
}

/** Who asked to drop the shift, when their request awaits an admin's answer. */
function dropRequester(state: ShiftState, context: CommandContext): string {
  requireAdmin(context, 'approveDrops');
  if (!state.dropRequested || state.assignedUserId === null) {
    reject('drop_not_requested', 'No drop has been requested for this shift');
  }
  return state.assignedUserId;
}

export function approveDrop(
  command: ShiftCommandOf<'ApproveDrop'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const userId = dropRequester(state, context);
  const { shiftId } = command.data;
  const at = context.now.toISOString();
  return [...cancelPendingTransfer(state, at), { type: 'DropApproved', data: { shiftId, userId, at } }];
}

export function denyDrop(
  command: ShiftCommandOf<'DenyDrop'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const userId = dropRequester(state, context);
  const { shiftId } = command.data;
  return [{ type: 'DropDenied', data: { shiftId, userId, at: context.now.toISOString() } }];
}
