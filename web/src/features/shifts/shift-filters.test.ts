import { describe, expect, it } from 'vitest';
import { aShift } from '../admin/shift-fixture';
import { defaultFilters, isDefault, urgentCount } from './shift-filters';

describe('Available Shifts filters', () => {
  it('open on every location and type, open shifts only; Clear returns there', () => {
    expect(defaultFilters).toEqual({ location: 'all', type: 'all', status: 'open' });
    expect(isDefault(defaultFilters)).toBe(true);
    expect(isDefault({ ...defaultFilters, status: 'all' })).toBe(false);
    expect(isDefault({ ...defaultFilters, location: 'Maple House' })).toBe(false);
  });

  it('counts the urgent and emergency shifts still needing cover', () => {
    const shifts = [
      aShift({ status: 'urgent', priority: 'urgent' }),
      aShift({ status: 'emergency', priority: 'emergency' }),
      aShift({ status: 'pending', priority: 'emergency' }),
      aShift(),
    ];
    expect(urgentCount(shifts)).toBe(2);
    expect(urgentCount([])).toBe(0);
  });
});
