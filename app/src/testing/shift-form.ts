import { easternToday, nextDate, type ShiftDetails } from '@shiftcover/domain';

/** The Eastern calendar date `days` days from today. */
export function inDays(days: number): string {
  let date = easternToday(new Date());
  for (let i = 0; i < days; i++) date = nextDate(date);
  return date;
}

/** The body of POST /api/shifts as the create dialog sends it: an AM shift at Maple House, 08:00–16:00, a week from today. */
export const aShiftForm = (overrides: Partial<ShiftDetails> = {}) => ({
  location: 'Maple House',
  type: 'AM' as const,
  date: inDays(7),
  startTime: '08:00',
  endTime: '16:00',
  ...overrides,
});
