import { z } from 'zod';
import type { Decider } from '../shared/decider';
import { reject } from '../shared/errors';
import { intervalsOverlap } from '../time/eastern';
import { formatShiftDate, timeRangeLabel } from '../time/labels';

const label = z.object({
  location: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});

export const reserveTimeSchema = z.object({
  userId: z.string().min(1),
  shiftId: z.string().min(1),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  label,
  /** Reservations the caller found abandoned (their shift is not this person's): released first. */
  releaseStale: z.array(z.string()).optional(),
});
export type ReserveTimeData = z.infer<typeof reserveTimeSchema>;

export type ScheduleCommand =
  | { type: 'ReserveTime'; data: ReserveTimeData }
  | { type: 'ReleaseTime'; data: { userId: string; shiftId: string } };

export type ScheduleEvent =
  | { type: 'TimeReserved'; data: Omit<ReserveTimeData, 'releaseStale'> & { at: string } }
  | { type: 'TimeReleased'; data: { userId: string; shiftId: string; at: string } };

export interface Reservation {
  shiftId: string;
  start: string;
  end: string;
  label: z.infer<typeof label>;
  at: string;
}

export interface ScheduleState {
  reservations: Reservation[];
}

const toInterval = (r: { start: string; end: string }) => ({
  start: new Date(r.start),
  end: new Date(r.end),
});

export function conflictMessage(r: Pick<Reservation, 'label'>): string {
  const { location, date, startTime, endTime } = r.label;
  return `Scheduling conflict: You already have a shift scheduled at this time (${location}, ${formatShiftDate(date)}, ${timeRangeLabel(startTime, endTime)}).`;
}

/** A person's schedule: the time of every shift they hold, so no two can overlap. */
export const scheduleDecider: Decider<ScheduleCommand, ScheduleEvent, ScheduleState> = {
  initialState: () => ({ reservations: [] }),

  decide(command, state, context) {
    const at = context.now.toISOString();
    const { userId } = command.data;
    if (command.type === 'ReleaseTime') {
      const held = state.reservations.some((r) => r.shiftId === command.data.shiftId);
      return held ? [{ type: 'TimeReleased', data: { userId, shiftId: command.data.shiftId, at } }] : [];
    }
    const { releaseStale = [], ...wanted } = command.data;
    const stale = state.reservations.filter(
      (r) => releaseStale.includes(r.shiftId) && r.shiftId !== wanted.shiftId,
    );
    const conflict = state.reservations.find(
      (r) =>
        r.shiftId !== wanted.shiftId &&
        !stale.includes(r) &&
        intervalsOverlap(toInterval(r), toInterval(wanted)),
    );
    if (conflict) reject('shift_conflict', conflictMessage(conflict));
    return [
      ...stale.map(
        (r): ScheduleEvent => ({ type: 'TimeReleased', data: { userId, shiftId: r.shiftId, at } }),
      ),
      { type: 'TimeReserved', data: { ...wanted, at } },
    ];
  },

  evolve(state, event) {
    const others = state.reservations.filter((r) => r.shiftId !== event.data.shiftId);
    if (event.type === 'TimeReleased') return { reservations: others };
    const { userId: _userId, ...reservation } = event.data;
    return { reservations: [...others, reservation] };
  },
};
