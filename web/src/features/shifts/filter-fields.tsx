import { type Option, SelectField } from '../../components/ui/form';
import { useResidences } from '../residences/use-residences';
import { type ShiftFilters, statusOptions, typeOptions } from './shift-filters';

/** Location, Shift Type and Status (docs/product.md §2); the same fields in the side panel and the sheet. */
export function FilterFields({
  filters,
  onChange,
}: {
  filters: ShiftFilters;
  onChange(filters: ShiftFilters): void;
}) {
  const residences = useResidences();
  const names = (residences.data ?? []).map((r) => r.name);
  const locations: Option[] = residences.isLoading
    ? [{ value: 'all', label: 'Loading residences...' }]
    : names.length === 0
      ? [{ value: 'all', label: 'No residences available' }]
      : [{ value: 'all', label: 'All Locations' }, ...names.map((name) => ({ value: name, label: name }))];
  return (
    <div className="grid gap-4">
      <SelectField
        label="Location"
        value={filters.location}
        options={locations}
        disabled={residences.isLoading}
        onChange={(location) => onChange({ ...filters, location })}
      />
      <SelectField
        label="Shift Type"
        value={filters.type}
        options={typeOptions}
        onChange={(type) => onChange({ ...filters, type })}
      />
      <SelectField
        label="Status"
        value={filters.status}
        options={statusOptions}
        onChange={(status) => onChange({ ...filters, status })}
      />
    </div>
  );
}
