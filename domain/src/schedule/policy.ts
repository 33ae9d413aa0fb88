import type { CommandContext } from '../shared/decider';
import type { ShiftEvent } from '../shift/events';
import type { ShiftCommand } from '../shift/schemas';
import type { ShiftState } from '../shift/state';
import { shiftInterval } from '../time/eastern';
import type { ReserveTimeData } from './schedule';

/** The time a shift would take on `userId`'s schedule. */
export function reservationFor(
  userId: string,
  shift: Pick<ShiftState, 'shiftId' | 'location' | 'date' | 'startTime' | 'endTime' | 'requiredCredentials'>,
): ReserveTimeData {
  const { start, end } = shiftInterval(shift.date, shift.startTime, shift.endTime);
  const { location, date, startTime, endTime } = shift;
  return {
    userId,
    shiftId: shift.shiftId,
    start: start.toISOString(),
    end: end.toISOString(),
    label: { location, date, startTime, endTime },
    requiredCredentials: shift.requiredCredentials,
  };
}

/**
 * Whose time a shift command is about to occupy, to be reserved on their schedule before the
 * shift's own events are stored; null when it occupies nobody's.
 */
export function reservationNeeded(
  command: ShiftCommand,
  state: ShiftState,
  context: CommandContext,
): ReserveTimeData | null {
  switch (command.type) {
    case 'ClaimShift':
      return context.actor.kind === 'user' ? reservationFor(context.actor.userId, state) : null;
    case 'AssignShift': {
      const { staffId, override } = command.data;
      return { ...reservationFor(staffId, state), ...(override ? { override } : {}) };
    }
    case 'AcceptTransfer': {
      const transfer = state.transfers.find((t) => t.transferId === command.data.transferId);
      return transfer ? reservationFor(transfer.toUserId, state) : null;
    }
    case 'UpdateShift': {
      const { date, startTime, endTime, location, requiredCredentials } = command.data;
      if (state.assignedUserId === null) return null;
      return reservationFor(state.assignedUserId, {
        ...state,
        date,
        startTime,
        endTime,
        location: location.trim(),
        requiredCredentials: [...new Set(requiredCredentials ?? [])],
      });
    }
    default:
      return null;
  }
}

/** Whose reservations the stored shift events free. Completion keeps the time worked. */
export function releasesAfter(
  events: ShiftEvent[],
  before: ShiftState,
): Array<{ userId: string; shiftId: string }> {
  const shiftId = before.shiftId;
  const released: Array<{ userId: string; shiftId: string }> = [];
  for (const event of events) {
    switch (event.type) {
      case 'ClaimDenied':
      case 'DropApproved':
      case 'HolderRemoved':
        released.push({ userId: event.data.userId, shiftId });
        break;
      case 'TransferAccepted':
        released.push({ userId: event.data.fromUserId, shiftId });
        break;
      case 'ShiftAssigned':
        if (event.data.previousUserId && event.data.previousUserId !== event.data.userId) {
          released.push({ userId: event.data.previousUserId, shiftId });
        }
        break;
      case 'ShiftDeleted':
        if (event.data.assignedUserId) released.push({ userId: event.data.assignedUserId, shiftId });
        break;
      case 'ShiftExpired':
        if (event.data.pendingUserId) released.push({ userId: event.data.pendingUserId, shiftId });
        break;
    }
  }
  return released;
}
