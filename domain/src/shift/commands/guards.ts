import type { actorCan } from '../../permissions/permissions';
import { requireActorCan } from '../../permissions/refusals';
import { actorIdOf, type CommandContext } from '../../shared/decider';
import { reject } from '../../shared/errors';
import { shiftInterval } from '../../time/eastern';
import type { ShiftEvent } from '../events';
import { schedulingProblem } from '../scheduling';
import type { ShiftCommand, ShiftCommandType, ShiftDetails } from '../schemas';
import { pendingTransfer, type ShiftState } from '../state';

/** The command of one type, as its decide function receives it. */
export type ShiftCommandOf<Type extends ShiftCommandType> = Extract<ShiftCommand, { type: Type }>;

export function actorId(context: CommandContext): string {
  return actorIdOf(context.actor);
}

export function requireUser(context: CommandContext): string {
  if (context.actor.kind !== 'user') reject('forbidden', 'This action needs a signed-in user');
  return context.actor.userId;
}

export function requireAdmin(context: CommandContext, capability: Parameters<typeof actorCan>[1]): void {
  requireActorCan(context.actor, capability);
}

/** Every command but posting needs a shift that exists and can still change. */
export function requireLive(state: ShiftState): void {
  if (!state.exists || state.deleted) reject('not_found', 'Shift not found');
  if (state.status === 'completed')
    reject('already_completed', 'This shift has been completed and can no longer change');
  if (state.status === 'expired')
    reject('already_completed', 'This shift has ended unfilled and can no longer change');
}

export function checkSchedulable(details: ShiftDetails, context: CommandContext): void {
  const problem = schedulingProblem(details, context.now);
  if (problem) reject('invalid', problem);
}

/** Where the shift stands in time at the moment the command is decided. */
export function timing(state: ShiftState, context: CommandContext) {
  const interval = shiftInterval(state.date, state.startTime, state.endTime);
  return { interval, started: context.now >= interval.start, ended: context.now >= interval.end };
}

export function facts(details: ShiftDetails) {
  return {
    location: details.location.trim(),
    date: details.date,
    startTime: details.startTime,
    endTime: details.endTime,
    type: details.type,
    priority: details.status,
    requirements: details.requirements ?? null,
    notes: details.notes ?? null,
    requiredCredentials: [...new Set(details.requiredCredentials ?? [])],
  };
}

/** Pending transfers end when the shift leaves its sender's hands some other way. */
export function cancelPendingTransfer(state: ShiftState, at: string): ShiftEvent[] {
  const transfer = pendingTransfer(state);
  if (!transfer) return [];
  const { transferId, fromUserId, toUserId } = transfer;
  return [
    { type: 'TransferCancelled', data: { shiftId: state.shiftId, transferId, fromUserId, toUserId, at } },
  ];
}
