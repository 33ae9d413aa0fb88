import {
  audienceLabels,
  type EscalationAudience,
  type EscalationPolicyView,
  escalationAudiences,
  escalationPolicySchema,
  MAX_ESCALATION_STEPS,
} from '@shiftcover/domain';
import { Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Alert, Spinner } from '../../components/ui/feedback';
import { Field, Input, SelectField } from '../../components/ui/form';
import { useEscalationPolicy, useSaveEscalationPolicy } from './use-rules';

type When = 'posting' | 'before';
type Mark = 'none' | 'urgent' | 'emergency';
interface StepRow {
  when: When;
  hours: string;
  audience: EscalationAudience;
  mark: Mark;
}

const whenOptions = [
  { value: 'posting', label: 'At posting' },
  { value: 'before', label: 'Before the start' },
] as const;
const audienceOptions = escalationAudiences.map((value) => ({ value, label: audienceLabels[value] }));
const markOptions = [
  { value: 'none', label: 'Leave as it is' },
  { value: 'urgent', label: 'Mark urgent' },
  { value: 'emergency', label: 'Mark emergency' },
] as const;

const rowsOf = (policy: EscalationPolicyView): StepRow[] =>
  policy.steps.map((step) => ({
    when: step.hoursBeforeStart === null ? 'posting' : 'before',
    hours: step.hoursBeforeStart === null ? '' : String(step.hoursBeforeStart),
    audience: step.audience,
    mark: step.mark ?? 'none',
  }));

const stepsOf = (rows: StepRow[]) =>
  rows.map((row) => ({
    hoursBeforeStart:
      row.when === 'posting' ? null : row.hours.trim() === '' ? Number.NaN : Number(row.hours),
    audience: row.audience,
    mark: row.mark === 'none' ? null : row.mark,
  }));

function StepFields({
  row,
  index,
  disabled,
  onChange,
  onRemove,
}: {
  row: StepRow;
  index: number;
  disabled: boolean;
  onChange(row: StepRow): void;
  onRemove(): void;
}) {
  return (
    <li>
      <fieldset className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_1fr_1fr_auto] sm:items-end">
        <legend className="px-1 text-sm font-medium text-slate-900">Step {index + 1}</legend>
        <SelectField
          label="When"
          value={row.when}
          options={whenOptions}
          disabled={disabled}
          onChange={(when) => onChange({ ...row, when })}
        />
        <Field label="Hours before the start">
          {(p) => (
            <Input
              {...p}
              type="number"
              inputMode="numeric"
              min={0}
              max={720}
              step={1}
              disabled={disabled || row.when === 'posting'}
              value={row.hours}
              onChange={(e) => onChange({ ...row, hours: e.target.value })}
            />
          )}
        </Field>
        <SelectField
          label="Who is told"
          value={row.audience}
          options={audienceOptions}
          disabled={disabled}
          onChange={(audience) => onChange({ ...row, audience })}
        />
        <SelectField
          label="Priority"
          value={row.mark}
          options={markOptions}
          disabled={disabled}
          onChange={(mark) => onChange({ ...row, mark })}
        />
        <Button
          type="button"
          variant="ghost"
          size="icon"
          disabled={disabled}
          onClick={onRemove}
          aria-label={`Remove step ${index + 1}`}
        >
          <Trash2 aria-hidden />
        </Button>
      </fieldset>
    </li>
  );
}

function PolicyEditor({ policy }: { policy: EscalationPolicyView }) {
  const [rows, setRows] = useState(() => rowsOf(policy));
  const [error, setError] = useState<string>();
  const save = useSaveEscalationPolicy();
  const change = (next: StepRow[]) => {
    setRows(next);
    setError(undefined);
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = escalationPolicySchema.safeParse({ steps: stepsOf(rows) });
    if (!checked.success) return setError(checked.error.issues[0]!.message);
    save.mutate(checked.data);
  }

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Escalation steps">
      <ol className="grid gap-3">
        {rows.map((row, index) => (
          <StepFields
            // Rows have no identity of their own: a removed row shifts the ones after it.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            row={row}
            index={index}
            disabled={save.isPending}
            onChange={(next) => change(rows.map((r, i) => (i === index ? next : r)))}
            onRemove={() => change(rows.filter((_, i) => i !== index))}
          />
        ))}
      </ol>
      {error && <Alert className="border-red-200 bg-red-50 text-red-900">{error}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={rows.length >= MAX_ESCALATION_STEPS}
          onClick={() =>
            change([...rows, { when: 'before', hours: '', audience: 'all_staff', mark: 'none' }])
          }
        >
          <Plus aria-hidden /> Add Step
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Policy'}
        </Button>
      </div>
    </form>
  );
}

/**
 * docs/product.md §11: who hears of a shift nobody has taken, and when. Super admins and developers
 * read and change it; each step runs once each time a shift is open.
 */
export function EscalationPolicyCard() {
  const policy = useEscalationPolicy();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Escalation Policy</CardTitle>
        <CardDescription>
          Steps for a shift still open: the step at posting first, then from the most hours before the start
          to the fewest. Hours are real time, Eastern.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {policy.isLoading ? (
          <Spinner label="Loading escalation policy" />
        ) : policy.isError || !policy.data ? (
          <Alert className="border-red-200 bg-red-50 text-red-900">{policy.error?.message}</Alert>
        ) : (
          // Keyed by the policy so that a change saved elsewhere refills the form.
          <PolicyEditor key={JSON.stringify(policy.data)} policy={policy.data} />
        )}
      </CardContent>
    </Card>
  );
}
