import { randomUUID } from 'node:crypto';
import {
  type CommandContext,
  reservationNeeded,
  type ShiftCommand,
  type ShiftEvent,
  type ShiftState,
  shiftDecider,
} from '@shiftcover/domain';
import {
  type CommandHandler,
  type CommandTrace,
  RetriesExhausted,
  WrongExpectedRevision,
} from '@shiftcover/eventstore';
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

const MAX_ATTEMPTS = 20;

/**
 * A shift command: decided on the shift's stream, with the time it gives someone reserved on
 * their schedule first and the time it frees released after.
 */
export async function executeShiftCommand(
  handler: CommandHandler,
  schedules: Schedules,
  command: ShiftCommand,
  context: CommandContext,
  trace: CommandTrace,
): Promise<ShiftOutcome> {
  const streamId = streams.shift(command.data.shiftId);
  // Reservations made by this execution get ids of their own, so a client retrying the same
  // command after a failure reserves again instead of being taken for a repeat.
  const execution = randomUUID();
  for (let attempt = 1; ; attempt++) {
    const { state, revision, events: stored } = await handler.load(streamId, shiftDecider);
    const earlier = stored.filter((event) => event.metadata.commandId === trace.commandId);
    const last = earlier.at(-1);
    if (last) {
      handler.report({ type: command.type, outcome: 'duplicate' });
      const events = earlier.map((e) => ({ type: e.type, data: e.data }) as ShiftEvent);
      return { events, position: last.position, duplicate: true, shift: state };
    }

    const events = handler.decide(shiftDecider, command, state, context);
    if (events.length === 0) {
      handler.report({ type: command.type, outcome: 'accepted' });
      return { events, position: await handler.headPosition(), duplicate: false, shift: state };
    }
    const attemptTrace = { ...trace, commandId: `${trace.commandId}#${execution}:${attempt}` };
    const reservation = reservationNeeded(command, state, context);
    const reservedNow = reservation ? await schedules.reserve(reservation, context, attemptTrace) : false;
    try {
      const position = await handler.append(streamId, events, revision, context, trace);
      await schedules.settle(events, state, context, attemptTrace);
      handler.report({ type: command.type, outcome: 'accepted' });
      return { events, position, duplicate: false, shift: events.reduce(shiftDecider.evolve, state) };
    } catch (error) {
      if (reservation && reservedNow) {
        await schedules.release(reservation.userId, reservation.shiftId, context, attemptTrace);
      }
      if (!(error instanceof WrongExpectedRevision)) throw error;
      const exhausted = attempt >= MAX_ATTEMPTS;
      handler.report({ type: command.type, outcome: exhausted ? 'exhausted' : 'retried' });
      if (exhausted) throw new RetriesExhausted(streamId);
    }
  }
}
