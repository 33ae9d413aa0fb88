import { randomUUID } from 'node:crypto';
import type { Actor } from '@shiftcover/domain';
import { easternInstant } from '@shiftcover/domain';
import { aShift, openProcessWorld, perFile } from '@shiftcover/testing';
import { describe, expect, it } from 'vitest';
import { settleDueShifts } from './shift-timers';

const world = perFile(() => openProcessWorld({ readModels: true }));
let clock = new Date();
const admin: Actor = { kind: 'user', userId: 'admin-1', role: 'admin', superAdmin: true };
const staff = (userId: string): Actor => ({ kind: 'user', userId, role: 'staff', superAdmin: false });

async function shift(
  date: string,
  startTime: string,
  endTime: string,
  story: 'approved' | 'pending' | 'open',
) {
  const shiftId = randomUUID();
  const as = (actor: Actor) => ({ actor, now: easternInstant('2026-03-01', '09:00') });
  await world.service.shift(
    {
      type: 'PostShift',
      data: aShift({ shiftId, date, startTime, endTime }),
    },
    as(admin),
    { commandId: randomUUID() },
  );
  if (story !== 'open') {
    await world.service.shift({ type: 'ClaimShift', data: { shiftId } }, as(staff(`s-${shiftId}`)), {
      commandId: randomUUID(),
    });
  }
  if (story === 'approved') {
    await world.service.shift({ type: 'ApproveClaim', data: { shiftId } }, as(admin), {
      commandId: randomUUID(),
    });
  }
  return shiftId;
}

const completedEvents = async () =>
  (await world.sql`select count(*)::int as n from events where type = 'ShiftCompleted'`)[0]!.n as number;

describe('the completion timer', () => {
  it('completes exactly the shifts that are due, once, and expires unfilled ended ones', async () => {
    const worked = await shift('2026-03-10', '08:00', '16:00', 'approved');
    const overnight = await shift('2026-03-10', '22:00', '06:00', 'approved');
    const unfilled = await shift('2026-03-10', '08:00', '16:00', 'open');
    const unapproved = await shift('2026-03-10', '09:00', '17:00', 'pending');
    const later = await shift('2026-03-12', '08:00', '16:00', 'approved');
    await world.project();
    const timers = { sql: world.sql, service: world.service, clock: () => clock };

    clock = easternInstant('2026-03-10', '16:59');
    expect(await settleDueShifts(timers)).toEqual({ completed: [], expired: [unfilled] });

    clock = easternInstant('2026-03-10', '17:00');
    await world.project();
    expect(await settleDueShifts(timers)).toEqual({ completed: [worked], expired: [unapproved] });

    clock = easternInstant('2026-03-11', '07:00');
    await world.project();
    expect(await settleDueShifts(timers)).toEqual({ completed: [overnight], expired: [] });

    // A second sweep, or one run before the read model caught up, changes nothing.
    expect(await settleDueShifts(timers)).toEqual({ completed: [], expired: [] });
    await world.project();
    expect(await settleDueShifts(timers)).toEqual({ completed: [], expired: [] });
    expect(await completedEvents()).toBe(2);

    const records =
      await world.sql`select original_shift_id, hours_worked from rm_completed_shifts order by hours_worked`;
    expect(records.map((r) => [r.original_shift_id, r.hours_worked])).toEqual([
      [worked, 480],
      [overnight, 480],
    ]);
    const [still] = await world.sql`select status from rm_shifts where id = ${later}`;
    expect(still!.status).toBe('approved');
  });

  it('catches up after downtime: everything that fell due while stopped is settled at the first sweep', async () => {
    const a = await shift('2026-04-01', '08:00', '16:00', 'approved');
    const b = await shift('2026-04-02', '08:00', '16:00', 'approved');
    await world.project();
    clock = easternInstant('2026-04-05', '12:00');
    const timers = { sql: world.sql, service: world.service, clock: () => clock };
    const result = await settleDueShifts(timers);
    // The March shift still held from the first test fell due during the "downtime" too.
    expect(result.completed).toHaveLength(3);
    expect(result.completed).toEqual(expect.arrayContaining([a, b]));
    await world.project();
    expect(await settleDueShifts(timers)).toEqual({ completed: [], expired: [] });
  });
});
