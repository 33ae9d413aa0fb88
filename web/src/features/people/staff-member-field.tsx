import type { Colleague } from '../../api/types';
import { SelectField } from '../../components/ui/form';
import { fullName } from './role-badge';

/** The "Staff member" picker of the assign and transfer dialogs: each person by name and @username. */
export function StaffMemberField({
  people,
  loading,
  value,
  onChange,
  error,
  prompt = 'Select a staff member',
}: {
  people: readonly Colleague[];
  loading: boolean;
  value: string;
  onChange(userId: string): void;
  error?: string;
  /** The first line once the people have loaded. */
  prompt?: string;
}) {
  return (
    <SelectField
      label="Staff member"
      value={value}
      busy={loading}
      error={error}
      options={[
        { value: '', label: loading ? 'Loading staff...' : prompt },
        ...people.map((u) => ({
          value: u.id,
          label: u.username ? `${fullName(u)} (@${u.username})` : fullName(u),
        })),
      ]}
      onChange={onChange}
    />
  );
}
