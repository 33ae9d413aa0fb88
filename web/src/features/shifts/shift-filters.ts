import type { Option } from '../../components/ui/form';

/** The Available Shifts filters (docs/product.md §2), sent to GET /api/shifts, which does the filtering. */
export interface ShiftFilters {
  location: string;
  type: 'all' | 'AM' | 'PM' | 'Overnight';
  status: 'all' | 'open' | 'claimed' | 'urgent';
}

/** What the screen opens with and what Clear returns to. */
export const defaultFilters: ShiftFilters = { location: 'all', type: 'all', status: 'open' };

export const typeOptions: Option<ShiftFilters['type']>[] = [
  { value: 'all', label: 'All Types' },
  { value: 'AM', label: 'AM' },
  { value: 'PM', label: 'PM' },
  { value: 'Overnight', label: 'Overnight' },
];

export const statusOptions: Option<ShiftFilters['status']>[] = [
  { value: 'all', label: 'All Statuses' },
  { value: 'open', label: 'Open' },
  { value: 'claimed', label: 'Claimed' },
  { value: 'urgent', label: 'Urgent' },
];

export function isDefault(filters: ShiftFilters): boolean {
  return (Object.keys(defaultFilters) as (keyof ShiftFilters)[]).every(
    (k) => filters[k] === defaultFilters[k],
  );
}
