import { describe, expect, it } from 'vitest';
import { canOverride, checkRulesForm, daysUntil, expiryState, ruleLabel, timeOffErrors } from './rules';

const reason = (code: string) => ({ code, message: code });

describe('canOverride', () => {
  it('allows assigning anyway against working-time rules only', () => {
    expect(canOverride([reason('rest_too_short'), reason('weekly_hours_exceeded')])).toBe(true);
    expect(canOverride([reason('too_many_consecutive_days')])).toBe(true);
  });

  it('never over a missing credential or time off, nor when nothing is in the way', () => {
    expect(canOverride([reason('rest_too_short'), reason('missing_credential')])).toBe(false);
    expect(canOverride([reason('unavailable')])).toBe(false);
    expect(canOverride([])).toBe(false);
  });
});

describe('expiryState', () => {
  it('counts calendar days across a clock change', () => {
    expect(daysUntil('2026-03-07', '2026-03-09')).toBe(2);
    expect(daysUntil('2026-11-01', '2026-10-31')).toBe(-1);
  });

  it('is soon within 30 days, expired the day after its date', () => {
    expect(expiryState(null, '2026-06-01')).toBe('never');
    expect(expiryState('2026-06-01', '2026-06-01')).toBe('soon');
    expect(expiryState('2026-07-01', '2026-06-01')).toBe('soon');
    expect(expiryState('2026-07-02', '2026-06-01')).toBe('valid');
    expect(expiryState('2026-05-31', '2026-06-01')).toBe('expired');
  });
});

describe('forms', () => {
  it('asks for both dates of time off, the end not before the start', () => {
    expect(timeOffErrors({ startDate: '', endDate: '', note: '' })).toEqual({
      startDate: 'Start date is required',
      endDate: 'End date is required',
    });
    expect(timeOffErrors({ startDate: '2026-06-02', endDate: '2026-06-01', note: '' })).toEqual({
      endDate: 'End date cannot be before the start date',
    });
    expect(timeOffErrors({ startDate: '2026-06-01', endDate: '2026-06-01', note: '' })).toEqual({});
  });

  it('takes whole numbers of at least 1 for every rule', () => {
    expect(checkRulesForm({ minRestHours: '10', maxHoursPerWeek: '48', maxConsecutiveDays: '5' })).toEqual({
      rules: { minRestHours: 10, maxHoursPerWeek: 48, maxConsecutiveDays: 5 },
    });
    expect(
      checkRulesForm({ minRestHours: '', maxHoursPerWeek: '4.5', maxConsecutiveDays: '0' }).errors,
    ).toEqual({
      minRestHours: 'Enter a whole number of at least 1',
      maxHoursPerWeek: 'Enter a whole number of at least 1',
      maxConsecutiveDays: 'Enter a whole number of at least 1',
    });
  });

  it('names each rule, and no other refusal', () => {
    expect(ruleLabel('weekly_hours_exceeded')).toBe('Hours per week');
    expect(ruleLabel('shift_started')).toBeUndefined();
  });
});
