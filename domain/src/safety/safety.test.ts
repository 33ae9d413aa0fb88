import { describe, expect, it } from 'vitest';
import type { ReserveTimeData, ScheduleEvent } from '../schedule/schedule';
import { scheduleDecider } from '../schedule/schedule';
import { at } from '../testing/shift-fixtures';
import { adminActor, developerActor, given, staffActor, superAdminActor } from '../testing/specification';
import { shiftInterval } from '../time/eastern';
import { RuleRefusal } from './checks';
import { credentialTypesDecider } from './credential-types';
import { whatIf } from './what-if';
import { DEFAULT_WORKING_TIME_RULES, workingTimeRulesDecider } from './working-time';

const now = at('2026-03-01', '09:00');
const stamp = now.toISOString();
const self = { actor: staffActor('staff-1'), now };
const admin = { actor: adminActor(), now };
const rules = { ...DEFAULT_WORKING_TIME_RULES, version: 0 };

let next = 0;
const shift = (date: string, startTime: string, endTime: string, requiredCredentials: string[] = []) => {
  const { start, end } = shiftInterval(date, startTime, endTime);
  return {
    userId: 'staff-1',
    shiftId: `s-${++next}`,
    start: start.toISOString(),
    end: end.toISOString(),
    label: { location: 'Maple House', date, startTime, endTime },
    requiredCredentials,
  } satisfies ReserveTimeData;
};
const held = (r: Omit<ReserveTimeData, 'override'>): ScheduleEvent => ({
  type: 'TimeReserved',
  data: { ...r, at: stamp },
});
const reserve = (data: ReserveTimeData) => ({ type: 'ReserveTime' as const, data: { ...data, rules } });
const credential = (name: string, expiresOn: string | null, credentialId = `c-${name}`): ScheduleEvent => ({
  type: 'CredentialRecorded',
  data: { userId: 'staff-1', credentialId, name, expiresOn, replaces: [], at: stamp },
});
const timeOff = (startDate: string, endDate: string): ScheduleEvent => ({
  type: 'TimeOffRecorded',
  data: { userId: 'staff-1', timeOffId: 'off-1', startDate, endDate, note: null, at: stamp },
});

describe('§10.1 credentials', () => {
  it('given a shift needing a credential the person lacks, when they claim, then missing_credential names it', () => {
    given(scheduleDecider)
      .when(reserve(shift('2026-03-10', '08:00', '16:00', ['Medication administration'])), self)
      .thenRejects(
        'missing_credential',
        'This shift needs the Medication administration credential, which you do not have',
      );
  });

  it('given a credential that expires before the shift ends, then missing_credential names the date', () => {
    given(scheduleDecider, [credential('CPR', '2026-03-10')])
      .when(reserve(shift('2026-03-10', '22:00', '06:00', ['CPR'])), self)
      .thenRejects(
        'missing_credential',
        'Your CPR credential expires on Mar 10, 2026, before this shift ends',
      );
  });

  it('given a credential valid through the day the shift ends, or one that never expires, then the shift is taken', () => {
    const wanted = shift('2026-03-10', '16:00', '00:00', ['CPR', 'Driver']);
    given(scheduleDecider, [credential('CPR', '2026-03-10'), credential('Driver', null)])
      .when(reserve(wanted), self)
      .thenEmits([held(wanted)]);
  });

  it('an assignment speaks of the person in the third person', () => {
    given(scheduleDecider)
      .when(reserve(shift('2026-03-10', '08:00', '16:00', ['CPR'])), admin)
      .thenRejects(
        'missing_credential',
        'This shift needs the CPR credential, which this person does not have',
      );
  });

  it('given a held shift that needs it, when an admin removes the credential, then credential_in_use', () => {
    const needing = shift('2026-03-10', '08:00', '16:00', ['CPR']);
    given(scheduleDecider, [credential('CPR', null), held(needing)])
      .when({ type: 'RemoveCredential', data: { userId: 'staff-1', credentialId: 'c-CPR' } }, admin)
      .thenRejects('credential_in_use', /CPR is needed for a shift this person holds \(Maple House/);
  });

  it('a renewal that ends before a held shift does is refused; one that covers it replaces the old credential', () => {
    const needing = shift('2026-03-10', '08:00', '16:00', ['CPR']);
    const history = [credential('CPR', '2026-12-31'), held(needing)];
    const renew = (expiresOn: string) => ({
      type: 'RecordCredential' as const,
      data: { userId: 'staff-1', credentialId: 'c-new', name: 'CPR', expiresOn },
    });
    given(scheduleDecider, history).when(renew('2026-03-09'), admin).thenRejects('credential_in_use');
    const state = given(scheduleDecider, history)
      .when(renew('2027-12-31'), admin)
      .thenEmits([
        {
          type: 'CredentialRecorded',
          data: {
            userId: 'staff-1',
            credentialId: 'c-new',
            name: 'CPR',
            expiresOn: '2027-12-31',
            replaces: ['c-CPR'],
            at: stamp,
          },
        },
      ]);
    expect(state.credentials.map((c) => c.credentialId)).toEqual(['c-new']);
  });

  it('a credential no held shift needs, or only shifts already over, is removed', () => {
    const past = shift('2026-02-10', '08:00', '16:00', ['CPR']);
    given(scheduleDecider, [credential('CPR', null), held(past)])
      .when({ type: 'RemoveCredential', data: { userId: 'staff-1', credentialId: 'c-CPR' } }, admin)
      .thenEmits([
        {
          type: 'CredentialRemoved',
          data: { userId: 'staff-1', credentialId: 'c-CPR', name: 'CPR', at: stamp },
        },
      ]);
  });

  it('only administrators record credentials', () => {
    given(scheduleDecider)
      .when(
        {
          type: 'RecordCredential',
          data: { userId: 'staff-1', credentialId: 'c', name: 'CPR', expiresOn: null },
        },
        self,
      )
      .thenRejects('forbidden');
  });

  it('the list of credential names is unique without regard to case, and only admins change it', () => {
    const added = {
      type: 'CredentialTypeAdded' as const,
      data: { credentialTypeId: 't-1', name: 'CPR', at: stamp },
    };
    given(credentialTypesDecider, [added])
      .when({ type: 'AddCredentialType', data: { credentialTypeId: 't-2', name: ' cpr ' } }, admin)
      .thenRejects('already_exists', 'The credential cpr is already on the list');
    given(credentialTypesDecider)
      .when({ type: 'AddCredentialType', data: { credentialTypeId: 't-1', name: 'CPR' } }, self)
      .thenRejects('forbidden');
    given(credentialTypesDecider, [added])
      .when({ type: 'RemoveCredentialType', data: { credentialTypeId: 't-1' } }, admin)
      .thenEmits([
        { type: 'CredentialTypeRemoved', data: { credentialTypeId: 't-1', name: 'CPR', at: stamp } },
      ]);
  });
});

describe('§10.2 working-time rules', () => {
  it('given a shift ending Tue 11:00 PM, when the person takes one starting Wed 5:00 AM, then rest_too_short with the figures', () => {
    const late = shift('2026-03-10', '15:00', '23:00');
    const refusal = given(scheduleDecider, [held(late)])
      .when(reserve(shift('2026-03-11', '05:00', '13:00')), self)
      .thenRejects(
        'rest_too_short',
        'You would have 6 h of rest between the shift ending Tue 11:00 PM and this one starting Wed 5:00 AM; the minimum is 8 h',
      );
    expect(refusal).toBeInstanceOf(RuleRefusal);
    expect((refusal as RuleRefusal).breach.figures).toMatchObject({ restHours: 6, minRestHours: 8 });
  });

  it('finds too little rest before a later shift too, and accepts exactly the minimum', () => {
    const early = shift('2026-03-11', '05:00', '13:00');
    given(scheduleDecider, [held(early)])
      .when(reserve(shift('2026-03-10', '15:00', '23:00')), self)
      .thenRejects(
        'rest_too_short',
        'You would have 6 h of rest between this shift ending Tue 11:00 PM and the one starting Wed 5:00 AM; the minimum is 8 h',
      );
    const eightHoursLater = shift('2026-03-11', '21:00', '05:00');
    given(scheduleDecider, [held(early)])
      .when(reserve(eightHoursLater), self)
      .thenEmits([held(eightHoursLater)]);
  });

  it('counts real elapsed rest across the spring-forward night', () => {
    // 22:00 Sat to 07:00 Sun reads as 9 hours on the clock, but only 8 went by on Mar 8, 2026.
    const saturday = shift('2026-03-07', '14:00', '22:00');
    const sunday = shift('2026-03-08', '07:00', '15:00');
    given(scheduleDecider, [held(saturday)])
      .when({ type: 'ReserveTime', data: { ...sunday, rules: { ...rules, minRestHours: 9 } } }, self)
      .thenRejects('rest_too_short', /You would have 8 h of rest/);
  });

  it('given 56 hours in a Sunday-to-Saturday week, when an 8-hour shift would make 64, then weekly_hours_exceeded', () => {
    const week = ['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12'].map((date) =>
      held(shift(date, '08:00', '19:12')),
    );
    given(scheduleDecider, week)
      .when(reserve(shift('2026-03-14', '08:00', '16:00')), self)
      .thenRejects(
        'weekly_hours_exceeded',
        'This shift would bring your hours in the week of Sun, Mar 8, 2026 to 64 h; the maximum is 60 h',
      );
  });

  it('starts a new week on Sunday: the same hours split across two weeks are taken', () => {
    const lastWeek = ['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07'].map((date) =>
      held(shift(date, '08:00', '20:00')),
    );
    const sunday = shift('2026-03-08', '08:00', '20:00');
    given(scheduleDecider, lastWeek)
      .when(reserve(sunday), self)
      .thenEmits([held(sunday)]);
  });

  it('counts an overnight shift on the fall-back night as the 9 hours it really lasts', () => {
    const fiveDays = ['2026-10-25', '2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29'].map((date) =>
      held(shift(date, '08:00', '18:00')),
    );
    // 50 hours so far; 22:00 Sat to 06:00 Sun over the fall-back night is 9 real hours: 59, not 58.
    const overnight = shift('2026-10-31', '22:00', '06:00');
    const state = given(scheduleDecider, fiveDays)
      .when(reserve(overnight), self)
      .thenEmits([held(overnight)]);
    given(scheduleDecider, [...fiveDays, held(overnight)])
      .when(
        {
          type: 'ReserveTime',
          data: { ...shift('2026-10-30', '08:00', '09:00'), rules: { ...rules, maxHoursPerWeek: 59.5 } },
        },
        self,
      )
      .thenRejects('weekly_hours_exceeded', /to 60 h; the maximum is 59.5 h/);
    expect(state.reservations).toHaveLength(6);
  });

  it('given six working days in a row, when a seventh is added, then too_many_consecutive_days', () => {
    const days = ['2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15'].map(
      (date) => held(shift(date, '08:00', '12:00')),
    );
    given(scheduleDecider, days)
      .when(reserve(shift('2026-03-16', '08:00', '12:00')), self)
      .thenRejects(
        'too_many_consecutive_days',
        'This shift would make 7 working days in a row for you (Mar 10, 2026 to Mar 16, 2026); the maximum is 6',
      );
  });

  it('an assignment with a reason overrides a working-time rule and records the breach it set aside', () => {
    const late = shift('2026-03-10', '15:00', '23:00');
    const early = { ...shift('2026-03-11', '05:00', '13:00'), override: { reason: 'Flu outbreak' } };
    const state = given(scheduleDecider, [held(late)])
      .when(reserve(early), admin)
      .thenEmits([
        {
          type: 'TimeReserved',
          data: {
            userId: 'staff-1',
            shiftId: early.shiftId,
            start: early.start,
            end: early.end,
            label: early.label,
            requiredCredentials: [],
            override: {
              reason: 'Flu outbreak',
              rulesVersion: 0,
              breaches: [
                {
                  code: 'rest_too_short',
                  message:
                    'They would have 6 h of rest between the shift ending Tue 11:00 PM and this one starting Wed 5:00 AM; the minimum is 8 h',
                  figures: { restHours: 6, minRestHours: 8, otherShiftId: late.shiftId },
                },
              ],
            },
            at: stamp,
          },
        },
      ]);
    expect(state.reservations.find((r) => r.shiftId === early.shiftId)?.override?.reason).toBe(
      'Flu outbreak',
    );
    // Reserved anew (the assignment repeated, the notes edited), the time keeps its override's record.
    const { override: _reason, ...again } = early;
    const overridden = scheduleDecider.decide(
      reserve(early),
      given(scheduleDecider, [held(late)]).state,
      admin,
    );
    const after = given(scheduleDecider, [held(late), ...overridden])
      .when(reserve(again), admin)
      .thenEmits(overridden);
    expect(after.reservations.find((r) => r.shiftId === early.shiftId)?.override?.reason).toBe(
      'Flu outbreak',
    );
  });

  it('time already held is not judged again under rules changed since; its credentials are', () => {
    const late = shift('2026-03-10', '15:00', '23:00');
    const early = shift('2026-03-11', '07:00', '15:00');
    const stricter = { ...rules, minRestHours: 10, version: 1 };
    given(scheduleDecider, [held(late), held(early)])
      .when({ type: 'ReserveTime', data: { ...early, rules: stricter } }, admin)
      .thenEmits([held(early)]);
    given(scheduleDecider, [held(late), held(early)])
      .when({ type: 'ReserveTime', data: { ...early, requiredCredentials: ['CPR'], rules: stricter } }, admin)
      .thenRejects('missing_credential');
    const moved = shift('2026-03-11', '06:00', '14:00');
    given(scheduleDecider, [held(late), held(early)])
      .when({ type: 'ReserveTime', data: { ...moved, shiftId: early.shiftId, rules: stricter } }, admin)
      .thenRejects('rest_too_short');
  });

  it('an override never sets aside a missing credential or time off', () => {
    const needing = {
      ...shift('2026-03-10', '08:00', '16:00', ['CPR']),
      override: { reason: 'Short staffed' },
    };
    given(scheduleDecider).when(reserve(needing), admin).thenRejects('missing_credential');
    const off = { ...shift('2026-03-10', '08:00', '16:00'), override: { reason: 'Short staffed' } };
    given(scheduleDecider, [timeOff('2026-03-10', '2026-03-10')])
      .when(reserve(off), admin)
      .thenRejects('unavailable');
  });

  it('super admins and developers set the rules, each change a new version; admins may not', () => {
    const set = {
      type: 'SetWorkingTimeRules' as const,
      data: { minRestHours: 10, maxHoursPerWeek: 48, maxConsecutiveDays: 5 },
    };
    const state = given(workingTimeRulesDecider)
      .when(set, { actor: superAdminActor(), now })
      .thenEmits([
        {
          type: 'WorkingTimeRulesSet',
          data: { ...set.data, version: 1, previous: DEFAULT_WORKING_TIME_RULES, at: stamp },
        },
      ]);
    expect(state).toEqual({ ...set.data, version: 1 });
    given(workingTimeRulesDecider).when(set, { actor: developerActor(), now }).thenEmits([expect.anything()]);
    given(workingTimeRulesDecider).when(set, admin).thenRejects('forbidden');
    given(workingTimeRulesDecider)
      .when(
        { type: 'SetWorkingTimeRules', data: DEFAULT_WORKING_TIME_RULES },
        { actor: developerActor(), now },
      )
      .thenEmits([]);
  });
});

describe('§10.4 time off', () => {
  it('given time off, when the person claims a shift in it, then unavailable', () => {
    given(scheduleDecider, [timeOff('2026-03-10', '2026-03-12')])
      .when(reserve(shift('2026-03-12', '22:00', '06:00')), self)
      .thenRejects(
        'unavailable',
        'You are off from Mar 10, 2026 to Mar 12, 2026: this shift falls in that time off',
      );
  });

  it('an overnight shift ending as the time off begins is taken', () => {
    const before = shift('2026-03-09', '22:00', '00:00');
    given(scheduleDecider, [timeOff('2026-03-10', '2026-03-12')])
      .when(reserve(before), self)
      .thenEmits([held(before)]);
  });

  it('time off is the person’s own: others may not record it, and its last day may not come first', () => {
    const record = (userId: string, startDate: string, endDate: string) => ({
      type: 'RecordTimeOff' as const,
      data: { userId, timeOffId: 'off-1', startDate, endDate, note: null },
    });
    given(scheduleDecider)
      .when(record('staff-1', '2026-03-10', '2026-03-12'), admin)
      .thenRejects('forbidden');
    given(scheduleDecider)
      .when(record('staff-1', '2026-03-12', '2026-03-10'), self)
      .thenRejects('invalid', 'The end date must be on or after the start date');
    given(scheduleDecider, [timeOff('2026-03-10', '2026-03-12')])
      .when({ type: 'CancelTimeOff', data: { userId: 'staff-1', timeOffId: 'off-1' } }, self)
      .thenEmits([{ type: 'TimeOffCancelled', data: { userId: 'staff-1', timeOffId: 'off-1', at: stamp } }]);
  });
});

describe('§10.5 what-if', () => {
  it('reports who would have broken which rule on which shift, counted per rule and per person', () => {
    const late = shift('2026-03-10', '15:00', '23:00');
    const early = shift('2026-03-11', '07:00', '15:00');
    const report = whatIf(
      new Map([['staff-1', [late, early]]]),
      { ...rules, minRestHours: 10 },
      at('2026-03-01', '00:00'),
      at('2026-03-31', '00:00'),
    );
    expect(report.violations).toMatchObject([
      { userId: 'staff-1', shiftId: early.shiftId, code: 'rest_too_short', figures: { restHours: 8 } },
    ]);
    expect(report.byRule).toEqual({ rest_too_short: 1 });
    expect(report.byPerson).toEqual({ 'staff-1': 1 });
    expect(
      whatIf(
        new Map([['staff-1', [late, early]]]),
        rules,
        at('2026-03-01', '00:00'),
        at('2026-03-31', '00:00'),
      ).violations,
    ).toEqual([]);
  });

  it('leaves out shifts that start outside the period', () => {
    const late = shift('2026-03-10', '15:00', '23:00');
    const early = shift('2026-03-11', '07:00', '15:00');
    const report = whatIf(
      new Map([['staff-1', [late, early]]]),
      { ...rules, minRestHours: 10 },
      at('2026-03-01', '00:00'),
      at('2026-03-11', '00:00'),
    );
    expect(report.violations).toEqual([]);
  });
});
