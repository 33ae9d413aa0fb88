import { type Option, SelectField } from '../../components/ui/form';
import { locationFilterOptions, useResidences } from '../residences/use-residences';
import type { CompletedFilters } from './completed-records';

const ranges: Option<CompletedFilters['dateRange']>[] = [
  { value: 'all', label: 'All time' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'Past week' },
  { value: 'month', label: 'This month' },
];
const sorts: Option<CompletedFilters['sort']>[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
  { value: 'location', label: 'Location' },
  { value: 'duration', label: 'Duration' },
];

export function CompletedFilterBar({
  filters,
  onChange,
}: {
  filters: CompletedFilters;
  onChange: (filters: CompletedFilters) => void;
}) {
  const residences = useResidences();
  return (
    <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-3">
      <SelectField
        label="Location"
        value={filters.location}
        options={locationFilterOptions(residences.data)}
        onChange={(location) => onChange({ ...filters, location })}
      />
      <SelectField
        label="Date range"
        value={filters.dateRange}
        options={ranges}
        onChange={(dateRange) => onChange({ ...filters, dateRange })}
      />
      <SelectField
        label="Sort by"
        value={filters.sort}
        options={sorts}
        onChange={(sort) => onChange({ ...filters, sort })}
      />
    </div>
  );
}
