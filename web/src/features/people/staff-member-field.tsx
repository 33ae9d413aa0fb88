import type { Colleague } from '../../api/types';
import { SelectField } from '../../components/ui/form';
import { fullName } from './role-badge';

export function nameAndUsername(person: Colleague): string {
  return person.username ? `${fullName(person)} (@${person.username})` : fullName(person);
}

/**
 * The "Staff member" picker of the assign and transfer dialogs: each person by name and @username,
 * or by `labelOf` where a dialog says more of them.
 */
export function StaffMemberField<P extends Colleague>({
  people,
  loading,
  value,
  onChange,
  error,
  prompt = 'Select a staff member',
  labelOf = nameAndUsername,
}: {
  people: readonly P[];
  loading: boolean;
  value: string;
  onChange(userId: string): void;
  error?: string;
  /** The first line once the people have loaded. */
  prompt?: string;
  labelOf?(person: P): string;
}) {
  return (
    <SelectField
      label="Staff member"
      value={value}
      busy={loading}
      error={error}
      options={[
        { value: '', label: loading ? 'Loading staff...' : prompt },
        ...people.map((person) => ({ value: person.id, label: labelOf(person) })),
      ]}
      onChange={onChange}
    />
  );
}
