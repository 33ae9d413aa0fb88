import type { ShiftType } from '../../../api/types';

/** docs/product.md §2 calendar legend: AM blue, PM green, Overnight purple. */
export const calendarColors: Record<ShiftType, { chip: string; dot: string }> = {
  AM: { chip: 'bg-blue-50 text-blue-900 border-blue-200', dot: 'bg-blue-500' },
  PM: { chip: 'bg-green-50 text-green-900 border-green-200', dot: 'bg-green-600' },
  Overnight: { chip: 'bg-purple-50 text-purple-900 border-purple-200', dot: 'bg-purple-500' },
};
