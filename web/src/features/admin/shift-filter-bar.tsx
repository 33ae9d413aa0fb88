import { X } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { type Option, SelectField } from '../../components/ui/form';
import { locationFilterOptions, useResidences } from '../residences/use-residences';
import { hasActiveFilter, noShiftFilters, type ShiftFilters } from './shift-filters';

const statuses: Option<ShiftFilters['status']>[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'open', label: 'Open' },
  { value: 'emergency', label: 'Emergency' },
  { value: 'urgent', label: 'Urgent' },
  { value: 'claimed', label: 'Claimed' },
  { value: 'pending', label: 'Pending' },
];
const types: Option<ShiftFilters['type']>[] = [
  { value: 'all', label: 'All types' },
  { value: 'AM', label: 'AM' },
  { value: 'PM', label: 'PM' },
  { value: 'Overnight', label: 'Overnight' },
];
const dateRanges: Option<ShiftFilters['dateRange']>[] = [
  { value: 'all', label: 'All dates' },
  { value: 'today', label: 'Today' },
  { value: 'tomorrow', label: 'Tomorrow' },
  { value: 'this-week', label: 'This week' },
  { value: 'past', label: 'Past' },
];

/** The four Shift Management filters, and Clear Filters once any is set. */
export function ShiftFilterBar({
  filters,
  onChange,
}: {
  filters: ShiftFilters;
  onChange: (filters: ShiftFilters) => void;
}) {
  const residences = useResidences();
  const set = <K extends keyof ShiftFilters>(key: K, value: ShiftFilters[K]) =>
    onChange({ ...filters, [key]: value });
  return (
    <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end">
      <SelectField
        label="Location"
        value={filters.location}
        options={locationFilterOptions(residences.data)}
        onChange={(location) => set('location', location)}
      />
      <SelectField
        label="Status"
        value={filters.status}
        options={statuses}
        onChange={(status) => set('status', status)}
      />
      <SelectField label="Type" value={filters.type} options={types} onChange={(type) => set('type', type)} />
      <SelectField
        label="Date"
        value={filters.dateRange}
        options={dateRanges}
        onChange={(dateRange) => set('dateRange', dateRange)}
      />
      {hasActiveFilter(filters) && (
        <Button
          variant="outline"
          onClick={() => onChange(noShiftFilters)}
          className="min-[420px]:col-span-2 lg:col-span-1"
        >
          <X aria-hidden />
          Clear Filters
        </Button>
      )}
    </div>
  );
}
