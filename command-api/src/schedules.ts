import { randomUUID } from 'node:crypto';
import {
  type CommandContext,
  type ReserveTimeData,
  releasesAfter,
  reservationNeeded,
  type ScheduleCommand,
  type ShiftCommand,
  type ShiftEvent,
  type ShiftState,
  scheduleDecider,
  shiftDecider,
} from '@shiftcover/domain';
import type { AppendHooks, CommandHandler, CommandTrace } from '@shiftcover/eventstore';
import { RESERVATION_GRACE_MS, streams } from './streams';

/**
 * A person's schedule stream reserves the time of every shift they hold, so two overlapping
 * shifts can never both be theirs, however the commands race. A reservation is written before the
 * shift's own events; if the command then fails, or the process dies in between, the reservation
 * is released or, once older than the grace period, found abandoned by the next reservation that
 * overlaps it (its shift does not name that person as assignee).
 */
export class Schedules {
  constructor(private readonly handler: CommandHandler) {}

  /**
   * A shift command's steps on the people's schedules: the time it gives someone is reserved
   * before the shift's events are appended (and released if the append fails), and the time it
   * frees is released after.
   */
  around(context: CommandContext, trace: CommandTrace): AppendHooks<ShiftCommand, ShiftEvent, ShiftState> {
    // Reservations made by this execution get ids of their own, so a client retrying the same
    // command after a failure reserves again instead of being taken for a repeat.
    const execution = randomUUID();
    const traceOf = (attempt: number) => ({
      ...trace,
      commandId: `${trace.commandId}#${execution}:${attempt}`,
    });
    return {
      beforeAppend: async ({ command, state, attempt }) => {
        const reservation = reservationNeeded(command, state, context);
        if (!reservation) return undefined;
        const attemptTrace = traceOf(attempt);
        if (!(await this.reserve(reservation, context, attemptTrace))) return undefined;
        return () => this.release(reservation.userId, reservation.shiftId, context, attemptTrace);
      },
      afterAppend: async ({ events, state, attempt }) => {
        for (const { userId, shiftId } of releasesAfter(events, state)) {
          await this.release(userId, shiftId, context, traceOf(attempt));
        }
      },
    };
  }

  /** Reserves the time; returns false when this shift was already reserved for the person. */
  private async reserve(
    reservation: ReserveTimeData,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<boolean> {
    let alreadyHeld = false;
    const outcome = await this.handler.handle(
      streams.schedule(reservation.userId),
      scheduleDecider,
      async (state): Promise<ScheduleCommand> => {
        alreadyHeld = state.reservations.some((r) => r.shiftId === reservation.shiftId);
        const releaseStale = await this.abandoned(reservation, state.reservations, context.now);
        return { type: 'ReserveTime', data: { ...reservation, releaseStale } };
      },
      context,
      { ...trace, commandId: `${trace.commandId}:reserve:${reservation.shiftId}` },
    );
    return !(outcome.duplicate || alreadyHeld);
  }

  private async release(
    userId: string,
    shiftId: string,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<void> {
    await this.handler.handle(
      streams.schedule(userId),
      scheduleDecider,
      { type: 'ReleaseTime', data: { userId, shiftId } },
      context,
      { ...trace, commandId: `${trace.commandId}:release:${userId}:${shiftId}` },
    );
  }

  private async abandoned(
    wanted: ReserveTimeData,
    held: readonly { shiftId: string; start: string; end: string; at: string }[],
    now: Date,
  ): Promise<string[]> {
    const stale: string[] = [];
    for (const r of held) {
      if (r.shiftId === wanted.shiftId || !(r.start < wanted.end && wanted.start < r.end)) continue;
      if (now.getTime() - Date.parse(r.at) < RESERVATION_GRACE_MS) continue;
      const { state: shift } = await this.handler.load(streams.shift(r.shiftId), shiftDecider);
      if (shift.assignedUserId !== wanted.userId) stale.push(r.shiftId);
    }
    return stale;
  }
}
