import { easternToday } from '@shiftcover/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asOfLabel, offlineNotice } from './offline-notice';

describe('the offline notice on My Shifts', () => {
  // 15:42 on Monday 23 November 2026 in New York (EST).
  const now = new Date('2026-11-23T20:42:00Z');

  it('gives the time alone, in Eastern time, for shifts fetched today', () => {
    expect(offlineNotice({ online: false, asOf: new Date('2026-11-23T20:07:00Z'), now })).toBe(
      'You are offline. Showing your shifts as of 3:07 PM. Changes need a connection.',
    );
  });

  it('reads "today" in Eastern time: 01:30 UTC on the 24th is still the 23rd in New York', () => {
    const lateEvening = new Date('2026-11-24T01:30:00Z');
    expect(asOfLabel(new Date('2026-11-23T14:00:00Z'), lateEvening)).toBe('9:00 AM');
  });

  it('adds the date for shifts fetched on an earlier day, across the change of clocks', () => {
    // 1 November 2026: clocks went back at 02:00; 13:15 UTC is 8:15 AM EST.
    expect(asOfLabel(new Date('2026-11-01T13:15:00Z'), now)).toBe('Nov 1, 8:15 AM');
    // The day before, still EDT: 13:15 UTC is 9:15 AM.
    expect(asOfLabel(new Date('2026-10-31T13:15:00Z'), now)).toBe('Oct 31, 9:15 AM');
  });

  it('says the server cannot be reached when the device is online but the answers came from the cache', () => {
    expect(offlineNotice({ online: true, asOf: new Date('2026-11-23T20:07:00Z'), now })).toBe(
      'The server cannot be reached. Showing your shifts as of 3:07 PM. Changes need a connection.',
    );
  });

  it('gives a bare 12-hour time exactly when the answers are from the same Eastern day, the date otherwise', () => {
    const instant = fc.date({
      min: new Date('2025-01-01T00:00:00Z'),
      max: new Date('2028-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 3 * 24 * 60 }), (asOf, minutesLater) => {
        const later = new Date(asOf.getTime() + minutesLater * 60_000);
        const label = asOfLabel(asOf, later);
        const sameDay = easternToday(asOf) === easternToday(later);
        expect(/^\d{1,2}:\d{2} [AP]M$/.test(label)).toBe(sameDay);
        expect(label).toMatch(/\d{1,2}:\d{2} [AP]M$/);
      }),
    );
  });
});
