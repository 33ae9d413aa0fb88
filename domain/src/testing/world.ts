import { DEFAULT_WORKING_TIME_RULES, type VersionedRules } from '../safety/working-time';
import { releasesAfter, reservationNeeded } from '../schedule/policy';
import { type ScheduleCommand, type ScheduleState, scheduleDecider } from '../schedule/schedule';
import type { Actor, CommandContext, Role } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { shiftDecider } from '../shift/decide';
import type { ShiftEvent } from '../shift/events';
import type { ShiftCommand } from '../shift/schemas';
import type { ShiftState } from '../shift/state';

export interface WorldUser {
  userId: string;
  role: Role;
  superAdmin: boolean;
}

/**
 * Shifts and schedules in memory, driven the way the command layer drives the event store: the
 * time a command gives someone is reserved on their schedule first, then the shift decides, then
 * the time it frees is released. Property tests run random command sequences through it.
 */
export class World {
  readonly shifts = new Map<string, ShiftState>();
  readonly schedules = new Map<string, ScheduleState>();

  constructor(
    readonly users: WorldUser[],
    /** The working-time rules every reservation is decided under. */
    readonly rules: VersionedRules = { ...DEFAULT_WORKING_TIME_RULES, version: 0 },
  ) {}

  actorOf(userId: string): Actor {
    const user = this.users.find((u) => u.userId === userId);
    if (!user) throw new Error(`Unknown user ${userId}`);
    return { kind: 'user', userId, role: user.role, superAdmin: user.superAdmin };
  }

  shift(shiftId: string): ShiftState {
    return this.shifts.get(shiftId) ?? shiftDecider.initialState();
  }

  schedule(userId: string): ScheduleState {
    return this.schedules.get(userId) ?? scheduleDecider.initialState();
  }

  /** A credential or time off recorded or removed on a person's schedule; the rejection, if refused. */
  record(command: ScheduleCommand, context: CommandContext): DomainError | undefined {
    const schedule = this.schedule(command.data.userId);
    try {
      const events = scheduleDecider.decide(command, schedule, context);
      this.schedules.set(command.data.userId, events.reduce(scheduleDecider.evolve, schedule));
      return undefined;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }

  /** Runs a command; returns its events, or the rejection. Nothing changes on a rejection. */
  execute(command: ShiftCommand, context: CommandContext): ShiftEvent[] | DomainError {
    const before = this.shift(command.data.shiftId);
    try {
      const events = shiftDecider.decide(command, before, context);
      const needed = reservationNeeded(command, before, context);
      if (needed) {
        const schedule = this.schedule(needed.userId);
        const reserved = scheduleDecider.decide(
          { type: 'ReserveTime', data: { ...needed, rules: this.rules } },
          schedule,
          context,
        );
        this.schedules.set(needed.userId, reserved.reduce(scheduleDecider.evolve, schedule));
      }
      this.shifts.set(command.data.shiftId, events.reduce(shiftDecider.evolve, before));
      for (const { userId, shiftId } of releasesAfter(events, before)) {
        const schedule = this.schedule(userId);
        const released = scheduleDecider.decide(
          { type: 'ReleaseTime', data: { userId, shiftId } },
          schedule,
          context,
        );
        this.schedules.set(userId, released.reduce(scheduleDecider.evolve, schedule));
      }
      return events;
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
  }
}
