import { describe, expect, it } from 'vitest';
import type { ShiftEvent } from '../shift/events';
import { evolveShift, initialShiftState } from '../shift/state';
import { aShift } from '../testing/builders';
import {
  approved,
  before,
  claimed,
  posted,
  SHIFT_ID,
  stamp,
  transferRequested,
} from '../testing/shift-fixtures';
import { given, staffActor } from '../testing/specification';
import { shiftInterval } from '../time/eastern';
import { releasesAfter, reservationNeeded } from './policy';
import { type ReserveTimeData, scheduleDecider } from './schedule';

const context = { actor: staffActor('staff-1'), now: before };
const reservation = (shiftId: string, date: string, startTime: string, endTime: string): ReserveTimeData => {
  const { start, end } = shiftInterval(date, startTime, endTime);
  return {
    userId: 'staff-1',
    shiftId,
    start: start.toISOString(),
    end: end.toISOString(),
    label: { location: 'Maple House', date, startTime, endTime },
  };
};
const reserved = (r: Omit<ReserveTimeData, 'override'>) => ({
  type: 'TimeReserved' as const,
  data: { ...r, at: stamp },
});
const morning = reservation('s-morning', '2026-03-10', '08:00', '16:00');

describe('a person’s schedule', () => {
  it('reserves free time', () => {
    given(scheduleDecider)
      .when({ type: 'ReserveTime', data: morning }, context)
      .thenEmits([reserved(morning)]);
  });

  it('refuses overlapping time with a "Scheduling conflict:" message naming the other shift', () => {
    given(scheduleDecider, [reserved(morning)])
      .when({ type: 'ReserveTime', data: reservation('s-mid', '2026-03-10', '12:00', '20:00') }, context)
      .thenRejects(
        'shift_conflict',
        'Scheduling conflict: You already have a shift scheduled at this time (Maple House, Tue, Mar 10, 2026, 8:00 AM – 4:00 PM).',
      );
  });

  it('allows back-to-back shifts when the rules ask for no rest', () => {
    const evening = reservation('s-evening', '2026-03-10', '16:00', '00:00');
    const rules = { minRestHours: 0, maxHoursPerWeek: 60, maxConsecutiveDays: 6, version: 1 };
    given(scheduleDecider, [reserved(morning)])
      .when({ type: 'ReserveTime', data: { ...evening, rules } }, context)
      .thenEmits([reserved(evening)]);
  });

  it('sees an overnight shift reach into the next morning, also on the fall-back night', () => {
    const overnight = reservation('s-night', '2026-10-31', '22:00', '06:00');
    const early = reservation('s-early', '2026-11-01', '05:30', '13:30');
    given(scheduleDecider, [reserved(overnight)])
      .when({ type: 'ReserveTime', data: early }, context)
      .thenRejects('shift_conflict');
  });

  it('re-reserving the same shift refreshes it instead of conflicting with itself', () => {
    given(scheduleDecider, [reserved(morning)])
      .when({ type: 'ReserveTime', data: morning }, context)
      .thenEmits([reserved(morning)]);
  });

  it('takes over time the caller found abandoned', () => {
    const mid = reservation('s-mid', '2026-03-10', '12:00', '20:00');
    given(scheduleDecider, [reserved(morning)])
      .when({ type: 'ReserveTime', data: { ...mid, releaseStale: ['s-morning'] } }, context)
      .thenEmits([
        { type: 'TimeReleased', data: { userId: 'staff-1', shiftId: 's-morning', at: stamp } },
        reserved(mid),
      ]);
  });

  it('releases a reservation, and releasing an unknown one changes nothing', () => {
    const state = given(scheduleDecider, [reserved(morning)])
      .when({ type: 'ReleaseTime', data: { userId: 'staff-1', shiftId: 's-morning' } }, context)
      .thenEmits([{ type: 'TimeReleased', data: { userId: 'staff-1', shiftId: 's-morning', at: stamp } }]);
    expect(state.reservations).toEqual([]);
    given(scheduleDecider)
      .when({ type: 'ReleaseTime', data: { userId: 'staff-1', shiftId: 'x' } }, context)
      .thenEmits([]);
  });
});

describe('how shift commands use schedules', () => {
  const fold = (events: ShiftEvent[]) => events.reduce(evolveShift, initialShiftState());
  const open = fold([posted()]);

  it('a claim occupies the claimant, an assignment the assignee, an accepted transfer the recipient', () => {
    expect(
      reservationNeeded({ type: 'ClaimShift', data: { shiftId: SHIFT_ID } }, open, context)?.userId,
    ).toBe('staff-1');
    expect(
      reservationNeeded(
        { type: 'AssignShift', data: { shiftId: SHIFT_ID, staffId: 'staff-9', assigneeRole: 'staff' } },
        open,
        context,
      )?.userId,
    ).toBe('staff-9');
    const offered = fold([posted(), claimed(), approved(), transferRequested()]);
    expect(
      reservationNeeded(
        { type: 'AcceptTransfer', data: { shiftId: SHIFT_ID, transferId: 't-1' } },
        offered,
        context,
      )?.userId,
    ).toBe('staff-2');
  });

  it('moving a held shift re-reserves its new time for the holder', () => {
    const held = fold([posted(), claimed(), approved()]);
    const command = {
      type: 'UpdateShift' as const,
      data: aShift({
        shiftId: SHIFT_ID,
        date: '2026-03-11',
        startTime: '09:00',
        endTime: '17:00',
      }),
    };
    const needed = reservationNeeded(command, held, context);
    expect(needed?.start).toBe(shiftInterval('2026-03-11', '09:00', '17:00').start.toISOString());
    expect(reservationNeeded(command, open, context)).toBeNull();
  });

  it('denials, approved drops, accepted transfers, reassignments, deletions and expiries free time', () => {
    const held = fold([posted(), claimed()]);
    const at = stamp;
    expect(
      releasesAfter([{ type: 'ClaimDenied', data: { shiftId: SHIFT_ID, userId: 'staff-1', at } }], held),
    ).toEqual([{ userId: 'staff-1', shiftId: SHIFT_ID }]);
    expect(
      releasesAfter(
        [
          {
            type: 'TransferAccepted',
            data: { shiftId: SHIFT_ID, transferId: 't', fromUserId: 'staff-1', toUserId: 'staff-2', at },
          },
        ],
        held,
      ),
    ).toEqual([{ userId: 'staff-1', shiftId: SHIFT_ID }]);
    expect(
      releasesAfter(
        [
          {
            type: 'ShiftAssigned',
            data: { shiftId: SHIFT_ID, userId: 'staff-2', previousUserId: 'staff-1', at },
          },
        ],
        held,
      ),
    ).toEqual([{ userId: 'staff-1', shiftId: SHIFT_ID }]);
    expect(
      releasesAfter([{ type: 'ShiftDeleted', data: { shiftId: SHIFT_ID, assignedUserId: null, at } }], held),
    ).toEqual([]);
    expect(
      releasesAfter(
        [{ type: 'ShiftCompleted', data: { shiftId: SHIFT_ID, userId: 'staff-1', hoursWorked: 480, at } }],
        held,
      ),
    ).toEqual([]);
  });
});
