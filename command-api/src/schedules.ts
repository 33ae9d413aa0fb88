import {
  type CommandContext,
  type ReserveTimeData,
  releasesAfter,
  type ScheduleCommand,
  type ShiftEvent,
  type ShiftState,
  scheduleDecider,
  shiftDecider,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace } from '@shiftcover/eventstore';
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

  /** Reserves the time; returns false when this shift was already reserved for the person. */
  async reserve(
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

  async release(
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

  /** Releases what the stored shift events free (a denied claim, an approved drop, …). */
  async settle(events: ShiftEvent[], before: ShiftState, context: CommandContext, trace: CommandTrace) {
    for (const { userId, shiftId } of releasesAfter(events, before)) {
      await this.release(userId, shiftId, context, trace);
    }
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
