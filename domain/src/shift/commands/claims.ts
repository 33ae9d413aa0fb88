import { isAssignable } from '../../permissions/permissions';
import type { CommandContext } from '../../shared/decider';
import { reject } from '../../shared/errors';
import type { ShiftEvent } from '../events';
import { isClaimable } from '../rules';
import type { ShiftState } from '../state';
import { cancelPendingTransfer, requireAdmin, requireUser, type ShiftCommandOf, timing } from './guards';

export function claimShift(
  command: ShiftCommandOf<'ClaimShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const userId = requireUser(context);
  if (!isClaimable(state)) reject('not_claimable', 'This shift is no longer available to claim');
  if (timing(state, context).ended) reject('shift_started', 'This shift has already ended');
  const { shiftId } = command.data;
  return [{ type: 'ShiftClaimed', data: { shiftId, userId, at: context.now.toISOString() } }];
}

/** Who claimed the shift, when their claim awaits an admin's answer. */
function claimant(state: ShiftState, context: CommandContext): string {
  requireAdmin(context, 'approveClaims');
  if (state.status !== 'pending' || state.assignedUserId === null) {
    reject('not_pending', 'This shift has no claim awaiting approval');
  }
  return state.assignedUserId;
}

export function approveClaim(
  command: ShiftCommandOf<'ApproveClaim'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const userId = claimant(state, context);
  const { shiftId } = command.data;
  return [{ type: 'ClaimApproved', data: { shiftId, userId, at: context.now.toISOString() } }];
}

export function denyClaim(
  command: ShiftCommandOf<'DenyClaim'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  const userId = claimant(state, context);
  const { shiftId } = command.data;
  return [{ type: 'ClaimDenied', data: { shiftId, userId, at: context.now.toISOString() } }];
}

export function assignShift(
  command: ShiftCommandOf<'AssignShift'>,
  state: ShiftState,
  context: CommandContext,
): ShiftEvent[] {
  requireAdmin(context, 'assignShift');
  const { shiftId, staffId, assigneeRole, override } = command.data;
  if (!isAssignable({ userId: staffId, role: assigneeRole, superAdmin: false })) {
    reject('invalid_recipient', 'Shifts can only be assigned to staff members');
  }
  if (timing(state, context).ended) reject('shift_started', 'This shift has already ended');
  if (state.assignedUserId === staffId && state.approved) return [];
  const previousUserId = state.assignedUserId;
  const at = context.now.toISOString();
  return [
    ...cancelPendingTransfer(state, at),
    {
      type: 'ShiftAssigned',
      data: { shiftId, userId: staffId, previousUserId, ...(override ? { override } : {}), at },
    },
  ];
}
