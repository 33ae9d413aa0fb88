import type { CommandContext, Decider } from '../shared/decider';
import { approveClaim, assignShift, claimShift, denyClaim } from './commands/claims';
import { approveDrop, denyDrop, requestDrop } from './commands/drops';
import { escalateShift } from './commands/escalation';
import { requireLive } from './commands/guards';
import { completeShift, expireShift, releaseHolder, remindHolder } from './commands/lifecycle';
import { deleteShift, markUrgent, postShift, updateShift } from './commands/posting';
import { acceptTransfer, cancelTransfer, declineTransfer, requestTransfer } from './commands/transfers';
import type { ShiftEvent } from './events';
import type { ShiftCommand } from './schemas';
import { evolveShift, initialShiftState, type ShiftState } from './state';

/** Each command is decided by its own function; all but posting need a live shift. */
export function decideShift(command: ShiftCommand, state: ShiftState, context: CommandContext): ShiftEvent[] {
  if (command.type === 'PostShift') return postShift(command, state, context);
  requireLive(state);
  switch (command.type) {
    case 'UpdateShift':
      return updateShift(command, state, context);
    case 'DeleteShift':
      return deleteShift(command, state, context);
    case 'MarkUrgent':
      return markUrgent(command, state, context);
    case 'ClaimShift':
      return claimShift(command, state, context);
    case 'ApproveClaim':
      return approveClaim(command, state, context);
    case 'DenyClaim':
      return denyClaim(command, state, context);
    case 'AssignShift':
      return assignShift(command, state, context);
    case 'RequestDrop':
      return requestDrop(command, state, context);
    case 'ApproveDrop':
      return approveDrop(command, state, context);
    case 'DenyDrop':
      return denyDrop(command, state, context);
    case 'RequestTransfer':
      return requestTransfer(command, state, context);
    case 'AcceptTransfer':
      return acceptTransfer(command, state, context);
    case 'DeclineTransfer':
      return declineTransfer(command, state, context);
    case 'CancelTransfer':
      return cancelTransfer(command, state, context);
    case 'CompleteShift':
      return completeShift(command, state, context);
    case 'ExpireShift':
      return expireShift(command, state, context);
    case 'ReleaseHolder':
      return releaseHolder(command, state, context);
    case 'RemindHolder':
      return remindHolder(command, state, context);
    case 'EscalateShift':
      return escalateShift(command, state, context);
  }
}

export const shiftDecider: Decider<ShiftCommand, ShiftEvent, ShiftState> = {
  decide: decideShift,
  evolve: evolveShift,
  initialState: initialShiftState,
};
