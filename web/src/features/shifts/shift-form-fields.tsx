import {
  formatShiftDate,
  occursTwiceInEastern,
  priorityLabels,
  repeatedTimeHint,
  type ShiftPriority,
  shiftEndDate,
  shiftPresets,
  shiftTypes,
  timeRangeLabel,
} from '@shiftcover/domain';
import { useState } from 'react';
import { Field, Input, type Option, SelectField, Textarea } from '../../components/ui/form';
import { useResidences } from '../residences/use-residences';
import { RequiredCredentialsField } from '../rules/required-credentials-field';
import { type PresetKey, type ShiftFormValues, withPreset } from './shift-form';

const presetOptions: Option<PresetKey | ''>[] = [
  { value: '', label: 'Custom times' },
  ...(Object.keys(shiftPresets) as PresetKey[]).map((key) => ({
    value: key,
    label: `${shiftPresets[key].label} (${timeRangeLabel(shiftPresets[key].startTime, shiftPresets[key].endTime)})`,
  })),
];
/** Under a time that happens twice as clocks fall back: which of the two the shift means. */
function repeatedHint(date: string, time: string): string | undefined {
  return date && time && occursTwiceInEastern(date, time) ? repeatedTimeHint(date, time) : undefined;
}

const typeOptions = shiftTypes.map((type) => ({ value: type, label: type }));

/** The residence choices with docs/product.md §2's loading and empty wording. */
function useLocationOptions(value: string): { options: Option[]; loading: boolean } {
  const residences = useResidences();
  const names = (residences.data ?? []).map((r) => r.name);
  // A shift may name a residence that has since been renamed or removed; it stays selectable.
  if (value && !names.includes(value)) names.unshift(value);
  const placeholder = residences.isLoading
    ? 'Loading residences...'
    : names.length
      ? 'Select a location'
      : 'No residences available';
  return {
    options: [{ value: '', label: placeholder }, ...names.map((name) => ({ value: name, label: name }))],
    loading: residences.isLoading,
  };
}

/** The fields of the Create New Shift and Edit Shift dialogs (docs/product.md §2, §5). */
export function ShiftFormFields({
  values,
  errors,
  onChange,
  priorities,
  minDate,
  withPresets = false,
}: {
  values: ShiftFormValues;
  errors: Record<string, string>;
  onChange(values: ShiftFormValues): void;
  priorities: ShiftPriority[];
  minDate: string;
  withPresets?: boolean;
}) {
  const [preset, setPreset] = useState<PresetKey | ''>('');
  const locations = useLocationOptions(values.location);
  const set = <K extends keyof ShiftFormValues>(field: K, value: ShiftFormValues[K]) =>
    onChange({ ...values, [field]: value });

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        label="Location"
        error={errors.location}
        className="sm:col-span-2"
        value={values.location}
        busy={locations.loading}
        options={locations.options}
        onChange={(location) => set('location', location)}
      />
      {withPresets && (
        <SelectField
          label="Preset"
          hint="Fills in the times and shift type."
          className="sm:col-span-2"
          value={preset}
          options={presetOptions}
          onChange={(key) => {
            setPreset(key);
            if (key) onChange(withPreset(values, key));
          }}
        />
      )}
      <Field
        label="Date"
        error={errors.date}
        hint={values.date ? formatShiftDate(values.date) : undefined}
        className="sm:col-span-2"
      >
        {(p) => (
          <Input
            {...p}
            type="date"
            min={minDate}
            value={values.date}
            onChange={(e) => set('date', e.target.value)}
          />
        )}
      </Field>
      <Field label="Start Time" error={errors.startTime} hint={repeatedHint(values.date, values.startTime)}>
        {(p) => (
          <Input
            {...p}
            type="time"
            value={values.startTime}
            onChange={(e) => {
              setPreset('');
              set('startTime', e.target.value);
            }}
          />
        )}
      </Field>
      <Field
        label="End Time"
        error={errors.endTime}
        hint={
          values.date && values.startTime
            ? repeatedHint(shiftEndDate(values.date, values.startTime, values.endTime), values.endTime)
            : undefined
        }
      >
        {(p) => (
          <Input
            {...p}
            type="time"
            value={values.endTime}
            onChange={(e) => {
              setPreset('');
              set('endTime', e.target.value);
            }}
          />
        )}
      </Field>
      <SelectField
        label="Shift Type"
        error={errors.type}
        value={values.type}
        options={typeOptions}
        onChange={(type) => set('type', type)}
      />
      <SelectField
        label="Priority"
        error={errors.status}
        value={values.status}
        options={priorities.map((priority) => ({ value: priority, label: priorityLabels[priority] }))}
        onChange={(status) => set('status', status)}
      />
      <RequiredCredentialsField
        className="sm:col-span-2"
        value={values.requiredCredentials}
        onChange={(names) => set('requiredCredentials', names)}
      />
      <Field label="Requirements (optional)" error={errors.requirements} className="sm:col-span-2">
        {(p) => (
          <Input
            {...p}
            placeholder="e.g. CPR certified, med pass trained"
            value={values.requirements}
            onChange={(e) => set('requirements', e.target.value)}
          />
        )}
      </Field>
      <Field label="Notes (optional)" error={errors.notes} className="sm:col-span-2">
        {(p) => <Textarea {...p} value={values.notes} onChange={(e) => set('notes', e.target.value)} />}
      </Field>
    </div>
  );
}
