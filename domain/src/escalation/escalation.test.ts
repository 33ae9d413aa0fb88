import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../shared/decider';
import { shiftDecider } from '../shift/decide';
import type { ShiftEvent } from '../shift/events';
import { at, claimed, posted, SHIFT_ID, stamp } from '../testing/shift-fixtures';
import { adminActor, given, staffActor, superAdminActor, systemActor } from '../testing/specification';
import { easternInstant, shiftInterval } from '../time/eastern';
import { dueSteps, type LadderShift, openingEvents, stepDueAt, stepKey } from './ladder';
import {
  DEFAULT_ESCALATION_POLICY,
  type EscalationStep,
  escalationAudiences,
  escalationPolicyDecider,
  escalationPolicySchema,
} from './policy';

const HOUR_MS = 3_600_000;
const audience = fc.constantFrom(...escalationAudiences);
const mark = fc.constantFrom('urgent' as const, 'emergency' as const, null);

/** A valid ladder: maybe a step at posting, then distinct hours from most to fewest. */
const ladder = fc
  .record({
    atPosting: fc.boolean(),
    hours: fc.uniqueArray(fc.integer({ min: 0, max: 720 }), { maxLength: 9 }),
  })
  .chain(({ atPosting, hours }) => {
    const times = [...(atPosting ? [null] : []), ...hours.sort((a, b) => b - a)];
    return fc.tuple(...times.map((h) => fc.record({ hoursBeforeStart: fc.constant(h), audience, mark })));
  });

const messageOf = (body: unknown) => {
  const parsed = escalationPolicySchema.safeParse(body);
  return parsed.success ? null : parsed.error.issues[0]!.message;
};

describe('the escalation policy (docs/product.md §11)', () => {
  it('accepts every ladder in order, and refuses it in any other order', () => {
    fc.assert(
      fc.property(ladder, fc.nat(), (steps, seed) => {
        expect(messageOf({ steps })).toBeNull();
        if (steps.length < 2) return;
        const i = seed % (steps.length - 1);
        const swapped = [...steps];
        [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
        expect(messageOf({ steps: swapped })).toMatch(/^Steps must be in order/);
        expect(messageOf({ steps: [...steps.slice(1), steps.at(-1)] })).toMatch(/^Steps must be in order/);
      }),
    );
  });

  it('refuses hours out of range or not whole, an unknown audience and more than 10 steps', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 721 }), fc.integer({ max: -1 }), fc.double({ min: 0.01, max: 719.99 })),
        (hours) => {
          fc.pre(!Number.isInteger(hours) || hours < 0 || hours > 720);
          expect(messageOf({ steps: [{ hoursBeforeStart: hours, audience: 'all_staff', mark: null }] })).toBe(
            'Hours before the start must be a whole number between 0 and 720',
          );
        },
      ),
    );
    expect(messageOf({ steps: [{ hoursBeforeStart: 4, audience: 'everyone', mark: null }] })).toBe(
      'Audience must be eligible_staff, all_staff, residence_admins or super_admins',
    );
    const eleven = Array.from({ length: 11 }, (_, i) => ({
      hoursBeforeStart: 100 - i,
      audience: 'all_staff',
      mark: null,
    }));
    expect(messageOf({ steps: eleven })).toBe('A policy has at most 10 steps');
  });

  it('is set by super admins and developers, each change a new version; the same steps change nothing', () => {
    const steps: EscalationStep[] = [{ hoursBeforeStart: 12, audience: 'all_staff', mark: 'urgent' }];
    const now = at('2026-03-01', '09:00');
    const set = given(escalationPolicyDecider)
      .when({ type: 'SetEscalationPolicy', data: { steps } }, { actor: superAdminActor(), now })
      .thenEmits([{ type: 'EscalationPolicySet', data: { steps, version: 1, at: now.toISOString() } }]);
    expect(set).toEqual({ steps, version: 1 });
    given(escalationPolicyDecider)
      .when(
        { type: 'SetEscalationPolicy', data: DEFAULT_ESCALATION_POLICY },
        { actor: superAdminActor(), now },
      )
      .thenEmits([]);
    given(escalationPolicyDecider)
      .when({ type: 'SetEscalationPolicy', data: { steps } }, { actor: adminActor(), now })
      .thenRejects('forbidden');
    given(escalationPolicyDecider)
      .when(
        { type: 'SetEscalationPolicy', data: { steps: [...steps, ...steps] } },
        { actor: superAdminActor(), now },
      )
      .thenRejects('invalid', /^Steps must be in order/);
  });
});

/** Shifts on any day of 2026, DST days among them, at any quarter hour. */
const aShiftOf2026 = fc
  .record({
    day: fc.integer({ min: 0, max: 364 }),
    quarter: fc.integer({ min: 0, max: 95 }),
    hours: fc.integer({ min: 1, max: 16 }),
  })
  .map(({ day, quarter, hours }) => {
    const date = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
    const hhmm = (q: number) =>
      `${String(Math.floor(q / 4) % 24).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;
    // 02:xx on the spring-forward day names no instant; the form refuses it, so the ladder never sees it.
    const startQuarter = date === '2026-03-08' && quarter >= 8 && quarter < 12 ? quarter + 4 : quarter;
    return { date, startTime: hhmm(startQuarter), endTime: hhmm(startQuarter + hours * 4) };
  });

describe('when a step falls due', () => {
  it('a step n hours before the start is n hours of real elapsed time before it, across DST', () => {
    fc.assert(
      fc.property(aShiftOf2026, fc.integer({ min: 0, max: 720 }), (shift, hours) => {
        const start = easternInstant(shift.date, shift.startTime);
        const due = stepDueAt({ hoursBeforeStart: hours }, { ...shift, openedAt: new Date(0) });
        expect(start.getTime() - due.getTime()).toBe(hours * HOUR_MS);
      }),
    );
  });

  it('a shift posted 10 hours before its start runs the step at posting and the 24-hour one, not the 48-hour one', () => {
    const start = at('2026-03-10', '08:00');
    const shift = {
      date: '2026-03-10',
      startTime: '08:00',
      endTime: '16:00',
      openedAt: at('2026-03-09', '22:00'),
    };
    const due = dueSteps(DEFAULT_ESCALATION_POLICY.steps, shift, [], at('2026-03-09', '22:00'));
    expect(due.map(stepKey)).toEqual(['posting', '24h']);
    expect(dueSteps(DEFAULT_ESCALATION_POLICY.steps, shift, ['posting', '24h'], start).map(stepKey)).toEqual([
      '8h',
    ]);
  });

  it('24 h before a shift the evening clocks sprang forward is 19:00 the evening before: 25 h of wall clock', () => {
    const shift = { date: '2026-03-08', startTime: '20:00', endTime: '23:00', openedAt: new Date(0) };
    expect(stepDueAt({ hoursBeforeStart: 24 }, shift)).toEqual(at('2026-03-07', '19:00'));
    const fallBack = { date: '2026-11-01', startTime: '20:00', endTime: '23:00', openedAt: new Date(0) };
    expect(stepDueAt({ hoursBeforeStart: 24 }, fallBack)).toEqual(at('2026-10-31', '21:00'));
  });

  it('due steps: not run yet, their time come at most a day ago, the shift not ended', () => {
    fc.assert(
      fc.property(
        ladder,
        aShiftOf2026,
        fc.integer({ min: 0, max: 800 * 60 }),
        fc.integer({ min: 0, max: 60 * 60 }),
        fc.array(fc.nat()),
        (steps, s, minutesBefore, later, doneIndexes) => {
          const start = easternInstant(s.date, s.startTime);
          const shift: LadderShift = { ...s, openedAt: new Date(start.getTime() - 900 * HOUR_MS) };
          const done = doneIndexes.filter((i) => i < steps.length).map((i) => stepKey(steps[i]!));
          const now = new Date(start.getTime() - minutesBefore * 60_000);
          const due = dueSteps(steps, shift, done, now);
          const end = shiftInterval(s.date, s.startTime, s.endTime).end;
          for (const step of due) {
            expect(done).not.toContain(stepKey(step));
            expect(stepDueAt(step, shift).getTime()).toBeLessThanOrEqual(now.getTime());
            expect(stepDueAt(step, shift).getTime()).toBeGreaterThan(now.getTime() - 24 * HOUR_MS);
          }
          expect(due.length + done.filter((k, i) => done.indexOf(k) === i).length).toBeLessThanOrEqual(
            steps.length,
          );
          const afterwards = new Date(now.getTime() + later * 60_000);
          const still = dueSteps(steps, shift, done, afterwards);
          const recent = due.filter(
            (step) => stepDueAt(step, shift) > new Date(afterwards.getTime() - 24 * HOUR_MS),
          );
          if (afterwards < end) for (const step of recent) expect(still).toContainEqual(step);
          else expect(still).toEqual([]);
        },
      ),
    );
  });
});

const timers = (now: Date): CommandContext => ({ actor: systemActor, now });
const urgentStep: EscalationStep = { hoursBeforeStart: 24, audience: 'residence_admins', mark: 'urgent' };
const escalate = (step: EscalationStep, opening = 1) => ({
  type: 'EscalateShift' as const,
  data: { shiftId: SHIFT_ID, opening, step, notices: [{ userId: 'admin-1', channel: 'in_app' as const }] },
});
const escalated = (step: EscalationStep, now: Date, opening = 1): ShiftEvent => ({
  type: 'ShiftEscalated',
  data: { ...escalate(step, opening).data, at: now.toISOString() },
});
const dayBefore = at('2026-03-09', '08:00');

describe('EscalateShift', () => {
  it('runs a step once per opening, marking the shift urgent without announcing it again', () => {
    const state = given(shiftDecider, [posted()])
      .when(escalate(urgentStep), timers(dayBefore))
      .thenEmits([
        escalated(urgentStep, dayBefore),
        {
          type: 'ShiftMarkedUrgent',
          data: { shiftId: SHIFT_ID, priority: 'urgent', escalated: true, at: dayBefore.toISOString() },
        },
      ]);
    expect(state).toMatchObject({ status: 'urgent', escalatedSteps: ['24h'], opening: 1 });
    given(shiftDecider, [posted(), escalated(urgentStep, dayBefore)])
      .when(escalate(urgentStep), timers(dayBefore))
      .thenEmits([]);
  });

  it('never lowers the priority', () => {
    given(shiftDecider, [posted({ priority: 'emergency' })])
      .when(escalate(urgentStep), timers(dayBefore))
      .thenEmits([escalated(urgentStep, dayBefore)]);
  });

  it('stops once the shift is claimed, and starts over when it is open again', () => {
    given(shiftDecider, [posted(), claimed()])
      .when(escalate(urgentStep), timers(dayBefore))
      .thenRejects('not_claimable', 'This shift is no longer open');
    const denied: ShiftEvent = {
      type: 'ClaimDenied',
      data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp },
    };
    const history = [posted({ priority: 'urgent' }), escalated(urgentStep, dayBefore), claimed(), denied];
    given(shiftDecider, history)
      .when(escalate(urgentStep, 1), timers(dayBefore))
      .thenRejects('not_claimable');
    const state = given(shiftDecider, history)
      .when(escalate(urgentStep, 2), timers(dayBefore))
      .thenEmits([escalated(urgentStep, dayBefore, 2)]);
    expect(state).toMatchObject({ opening: 2, openedAt: stamp, escalatedSteps: ['24h'] });
  });

  it('refuses a shift that has ended and people who are not administrators', () => {
    given(shiftDecider, [posted()])
      .when(escalate(urgentStep), timers(at('2026-03-10', '16:00')))
      .thenRejects('not_ended');
    given(shiftDecider, [posted()])
      .when(escalate(urgentStep), { actor: staffActor(), now: dayBefore })
      .thenRejects('forbidden');
  });
});

describe('the openings of a shift', () => {
  const happenings: ShiftEvent[] = [
    claimed(),
    { type: 'ClaimDenied', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } },
    { type: 'ClaimApproved', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } },
    { type: 'DropApproved', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } },
    { type: 'HolderRemoved', data: { shiftId: SHIFT_ID, userId: 'staff-1', at: stamp } },
    {
      type: 'ShiftAssigned',
      data: { shiftId: SHIFT_ID, userId: 'staff-2', previousUserId: null, at: stamp },
    },
    escalated(urgentStep, dayBefore),
  ];

  it('are counted by the decider as the read model counts them (openingEvents), each starting the ladder over', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...happenings), { maxLength: 12 }), (later) => {
        const history = [posted(), ...later];
        const state = history.reduce(shiftDecider.evolve, shiftDecider.initialState());
        expect(state.opening).toBe(history.filter((e) => openingEvents.includes(e.type)).length);
        const sinceOpening = later.slice(later.findLastIndex((e) => openingEvents.includes(e.type)) + 1);
        expect(state.escalatedSteps).toEqual(
          sinceOpening.filter((e) => e.type === 'ShiftEscalated').map(() => '24h'),
        );
      }),
    );
  });
});
