import { describe, expect, it } from 'vitest';
import { aShift } from '../admin/shift-fixture';
import {
  checkNewShift,
  checkShiftForm,
  newShiftForm,
  priorityChoices,
  shiftForm,
  withPreset,
} from './shift-form';

// 2026-03-05 10:30 in New York (EST).
const now = new Date('2026-03-05T15:30:00Z');

describe('the shift form', () => {
  it('starts today in Eastern time, 08:00 to 16:00, AM, Normal priority', () => {
    const lateEvening = new Date('2026-03-06T03:00:00Z');
    expect(newShiftForm(lateEvening)).toMatchObject({
      date: '2026-03-05',
      startTime: '08:00',
      endTime: '16:00',
      type: 'AM',
      status: 'open',
      location: '',
    });
  });

  it('fills times and type from a preset and leaves everything else', () => {
    const values = { ...newShiftForm(now), location: 'Oak Lodge', notes: 'Bring keys' };
    expect(withPreset(values, 'day')).toEqual({
      ...values,
      startTime: '16:00',
      endTime: '00:00',
      type: 'PM',
    });
    expect(withPreset(values, 'overnight')).toMatchObject({
      startTime: '00:00',
      endTime: '08:00',
      type: 'Overnight',
    });
  });

  it('edits a shift with its priority and empty text for missing notes', () => {
    const shift = aShift({ status: 'pending', priority: 'urgent', notes: null, requirements: 'CPR' });
    expect(shiftForm(shift)).toMatchObject({ status: 'urgent', notes: '', requirements: 'CPR' });
  });

  it('carries the required credentials from the shift into the form and out with the details', () => {
    const shift = { ...aShift(), requiredCredentials: ['CPR', 'Driver'] };
    expect(shiftForm(shift).requiredCredentials).toEqual(['CPR', 'Driver']);
    expect(shiftForm(aShift()).requiredCredentials).toEqual([]);
    const checked = checkShiftForm({
      ...newShiftForm(now),
      location: 'Oak Lodge',
      requiredCredentials: ['CPR'],
    });
    expect(checked.details?.requiredCredentials).toEqual(['CPR']);
  });

  it('sends empty requirements and notes as null', () => {
    const checked = checkShiftForm({ ...newShiftForm(now), location: 'Oak Lodge' });
    expect(checked.details).toMatchObject({ location: 'Oak Lodge', requirements: null, notes: null });
  });

  it('asks for a location before creating a shift', () => {
    expect(checkNewShift(newShiftForm(now), now).errors).toEqual({
      location: 'Location is required to create a shift',
    });
  });

  it('refuses past dates and overnight shifts that have already started', () => {
    const form = { ...newShiftForm(now), location: 'Oak Lodge' };
    expect(checkNewShift({ ...form, date: '2026-03-04' }, now).errors).toEqual({
      date: 'Cannot schedule shifts for past dates',
    });
    expect(checkNewShift(withPreset(form, 'overnight'), now).errors).toEqual({
      startTime: 'Cannot schedule overnight shifts that have already started',
    });
    expect(checkNewShift(form, now).details).toMatchObject({ date: '2026-03-05', type: 'AM' });
  });

  it('offers Emergency to creators, and when editing only to super admins or shifts already in emergency', () => {
    expect(priorityChoices(true)).toEqual(['open', 'urgent', 'emergency']);
    expect(priorityChoices(false, 'urgent')).toEqual(['open', 'urgent']);
    expect(priorityChoices(false, 'emergency')).toEqual(['open', 'urgent', 'emergency']);
  });

  it('refuses a start or end time skipped as clocks spring forward, in words', () => {
    const values = { ...newShiftForm(now), location: 'Oak Lodge', date: '2027-03-14' };
    expect(checkShiftForm({ ...values, startTime: '02:30', endTime: '10:00' }).errors).toEqual({
      startTime:
        '2:30 AM does not exist on Sun, Mar 14, 2027: clocks in Eastern time skip from 2:00 AM to 3:00 AM. Please choose another time.',
    });
    const overnight = { ...values, date: '2027-03-13', startTime: '22:00', endTime: '02:15' };
    expect(checkShiftForm(overnight).errors?.endTime).toMatch(/^2:15 AM does not exist on Sun, Mar 14, 2027/);
    expect(checkShiftForm({ ...values, startTime: '03:00', endTime: '11:00' }).details).toBeDefined();
  });

  it('accepts a time that happens twice as clocks fall back', () => {
    const values = { ...newShiftForm(now), location: 'Oak Lodge', date: '2027-11-07', startTime: '01:30' };
    expect(checkShiftForm({ ...values, endTime: '09:30' }).details).toBeDefined();
  });
});
