import { easternTimestamp } from '@shiftcover/domain';
import { describe, expect, it } from 'vitest';
import { actionTone, defaultAuditFilters, humanize, isFiltered } from './audit-filters';

describe('audit log presentation', () => {
  it('names actions in words', () => {
    expect(humanize('shift_drop_requested')).toBe('Shift Drop Requested');
    expect(humanize('login')).toBe('Login');
  });

  it('shows times in Eastern time with the right abbreviation either side of daylight saving', () => {
    expect(easternTimestamp('2026-01-15T17:04:05Z')).toBe('Jan 15, 2026, 12:04:05 PM EST');
    expect(easternTimestamp('2026-07-15T17:04:05Z')).toBe('Jul 15, 2026, 1:04:05 PM EDT');
  });

  it('knows when any filter is away from its default', () => {
    expect(isFiltered(defaultAuditFilters)).toBe(false);
    expect(isFiltered({ ...defaultAuditFilters, action: 'login' })).toBe(true);
    expect(isFiltered({ ...defaultAuditFilters, endDate: '2026-03-01' })).toBe(true);
  });

  it('tones badges by what the action did', () => {
    expect(actionTone('user_deleted')).toBe('removal');
    expect(actionTone('shift_updated')).toBe('change');
    expect(actionTone('shift_created')).toBe('creation');
    expect(actionTone('login')).toBe('neutral');
  });
});
