import type { WorkingTimeRules } from '../../api/types';
import { Field, Input } from '../../components/ui/form';
import type { RulesForm } from './rules';

const fields: { key: keyof WorkingTimeRules; label: string; unit: string }[] = [
  { key: 'minRestHours', label: 'Minimum rest between shifts', unit: 'hours' },
  { key: 'maxHoursPerWeek', label: 'Maximum hours per week', unit: 'hours, Sunday to Saturday' },
  { key: 'maxConsecutiveDays', label: 'Maximum days in a row', unit: 'days' },
];

/** The three working-time rules as number fields, shared by the rules form and the what-if form. */
export function RulesFields({
  form,
  errors,
  disabled,
  onChange,
}: {
  form: RulesForm;
  errors: Record<string, string>;
  disabled?: boolean;
  onChange(form: RulesForm): void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {fields.map(({ key, label, unit }) => (
        <Field key={key} label={label} hint={unit} error={errors[key]}>
          {(p) => (
            <Input
              {...p}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              disabled={disabled}
              value={form[key]}
              onChange={(e) => onChange({ ...form, [key]: e.target.value })}
            />
          )}
        </Field>
      ))}
    </div>
  );
}
