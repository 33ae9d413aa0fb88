import { RotateCcw } from 'lucide-react';
import type { ManagedUser } from '../../api/types';
import { Button } from '../../components/ui/button';
import { Field, Input, type Option, SelectField } from '../../components/ui/form';
import { fullName } from '../people/role-badge';
import {
  type AuditFilters,
  auditActions,
  auditEntityTypes,
  defaultAuditFilters,
  humanize,
  isFiltered,
} from './audit-filters';

/** On a phone the selects take the full width and the two dates share a line. */
const wide = 'col-span-2 lg:col-span-1';

const humanized = (values: readonly string[]): Option[] =>
  values.map((value) => ({ value, label: humanize(value) }));
const actionOptions = [{ value: 'all', label: 'All actions' }, ...humanized(auditActions)];
const entityTypeOptions = [{ value: 'all', label: 'All types' }, ...humanized(auditEntityTypes)];

/** User, action, entity type and date filters of the Audit Logs tab, with Reset Filters. */
export function AuditFilterBar({
  filters,
  users,
  onChange,
}: {
  filters: AuditFilters;
  users: ManagedUser[];
  onChange(filters: AuditFilters): void;
}) {
  const set = (field: keyof AuditFilters) => (value: string) => onChange({ ...filters, [field]: value });
  const userOptions = [
    { value: 'all', label: 'All users' },
    ...users.map((u) => ({ value: u.id, label: fullName(u) })),
  ];
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto] lg:items-end">
      <SelectField
        label="User"
        className={wide}
        value={filters.userId}
        options={userOptions}
        onChange={set('userId')}
      />
      <SelectField
        label="Action"
        className={wide}
        value={filters.action}
        options={actionOptions}
        onChange={set('action')}
      />
      <SelectField
        label="Entity type"
        className={wide}
        value={filters.entityType}
        options={entityTypeOptions}
        onChange={set('entityType')}
      />
      <Field label="Start date">
        {(p) => (
          <Input
            {...p}
            type="date"
            value={filters.startDate}
            onChange={(e) => set('startDate')(e.target.value)}
          />
        )}
      </Field>
      <Field label="End date">
        {(p) => (
          <Input
            {...p}
            type="date"
            min={filters.startDate || undefined}
            value={filters.endDate}
            onChange={(e) => set('endDate')(e.target.value)}
          />
        )}
      </Field>
      <Button
        variant="outline"
        className={wide}
        disabled={!isFiltered(filters)}
        onClick={() => onChange(defaultAuditFilters)}
      >
        <RotateCcw aria-hidden />
        Reset Filters
      </Button>
    </div>
  );
}
