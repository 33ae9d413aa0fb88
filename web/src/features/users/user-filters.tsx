import type { Residence } from '../../api/types';
import { type Option, SelectField } from '../../components/ui/form';
import type { UserFilters } from './use-users';

const roles: Option<UserFilters['role']>[] = [
  { value: 'all', label: 'All roles' },
  { value: 'developer', label: 'Developer' },
  { value: 'admin', label: 'Admin' },
  { value: 'staff', label: 'Staff' },
];
const sorts: Option<UserFilters['sort']>[] = [
  { value: 'recency', label: 'Newest first' },
  { value: 'alphabetical', label: 'Alphabetical' },
];

/** Role, sort and residence filters of the User Management tab (docs/product.md §2). */
export function UserFilterBar({
  filters,
  residences,
  onChange,
}: {
  filters: UserFilters;
  residences: Residence[];
  onChange(filters: UserFilters): void;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <SelectField
        label="Role"
        value={filters.role}
        options={roles}
        onChange={(role) => onChange({ ...filters, role })}
      />
      <SelectField
        label="Sort"
        value={filters.sort}
        options={sorts}
        onChange={(sort) => onChange({ ...filters, sort })}
      />
      <SelectField
        label="Residence"
        value={filters.residence}
        options={[
          { value: 'all', label: 'All assignments' },
          { value: 'unassigned', label: 'Unassigned' },
          ...residences.map((r) => ({ value: r.id, label: r.name })),
        ]}
        onChange={(residence) => onChange({ ...filters, residence })}
      />
    </div>
  );
}
