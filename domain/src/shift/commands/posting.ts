import { actorCan } from '../../permissions/permissions';
import type { CommandContext } from '../../shared/decider';
import { reject } from '../../shared/errors';
import type { ShiftEvent } from '../events';
import type { ShiftState } from '../state';
import {
  actorId,
  cancelPendingTransfer,
  checkSchedulable,
  facts,
  requireAdmin,
  type ShiftCommandOf,
} from './guards';

export function postShift(
  command: ShiftCommandOf<'PostShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'createShift');
  if (state.exists) reject('already_exists', 'Shift already exists');
  checkSchedulable(command.data, context);
  if (command.data.testData && !actorCan(context.actor, 'developerTools'))
    reject('forbidden', 'Only developers can create test shifts');
  const test = command.data.testData ? { testData: true as const } : {};
  const { shiftId } = command.data;
  const at = context.now.toISOString();
  return [
    {
      type: 'ShiftPosted',
      data: { shiftId, ...facts(command.data), createdById: actorId(context), ...test, at },
    },
  ];
}

export function updateShift(
  command: ShiftCommandOf<'UpdateShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'editShift');
  const next = facts(command.data);
  const moved =
    next.date !== state.date || next.startTime !== state.startTime || next.endTime !== state.endTime;
  if (moved) checkSchedulable(command.data, context);
  const { shiftId } = command.data;
  return [{ type: 'ShiftUpdated', data: { shiftId, ...next, at: context.now.toISOString() } }];
}

export function deleteShift(
  command: ShiftCommandOf<'DeleteShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'deleteShift');
  const { shiftId } = command.data;
  const at = context.now.toISOString();
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
}

export function markUrgent(
  command: ShiftCommandOf<'MarkUrgent'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'editShift');
  if (state.priority === command.data.priority) return [];
  const { shiftId, priority } = command.data;
  return [{ type: 'ShiftMarkedUrgent', data: { shiftId, priority, at: context.now.toISOString() } }];
}
