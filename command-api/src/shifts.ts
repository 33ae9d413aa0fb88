import {
  type CommandContext,
  type ShiftCommand,
  type ShiftEvent,
  type ShiftState,
  shiftDecider,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace } from '@shiftcover/eventstore';
import type { Schedules } from './schedules';
import { streams } from './streams';

export interface CommandOutcome<Event> {
  events: Event[];
  position: bigint;
  duplicate: boolean;
}

/** A shift command's outcome and the shift as it stands after it. */
export interface ShiftOutcome extends CommandOutcome<ShiftEvent> {
  shift: ShiftState;
}

/** A shift command, with its steps on the people's schedules around the shift's own append. */
export async function executeShiftCommand(
  handler: CommandHandler,
  schedules: Schedules,
  command: ShiftCommand,
  context: CommandContext,
  trace: CommandTrace,
): Promise<ShiftOutcome> {
  const { state, ...outcome } = await handler.handle(
    streams.shift(command.data.shiftId),
    shiftDecider,
    command,
    context,
    trace,
    schedules.around(context, trace, command),
  );
  return { ...outcome, shift: state };
}
