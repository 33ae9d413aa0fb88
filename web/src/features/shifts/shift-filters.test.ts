import { describe, expect, it } from 'vitest';
import { defaultFilters, isDefault } from './shift-filters';

describe('Available Shifts filters', () => {
  it('open on every location and type, open shifts only; Clear returns there', () => {
    expect(defaultFilters).toEqual({ location: 'all', type: 'all', status: 'open' });
    expect(isDefault(defaultFilters)).toBe(true);
    expect(isDefault({ ...defaultFilters, status: 'all' })).toBe(false);
    expect(isDefault({ ...defaultFilters, location: 'Maple House' })).toBe(false);
  });
});
