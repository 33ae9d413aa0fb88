import { easternDate, easternInstant, nextDate, shiftTimeLabel } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { WhatIfReport } from '../../api/types';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/feedback';
import { Field, Input } from '../../components/ui/form';
import { checkRulesForm, type RulesForm, ruleLabel, rulesForm } from './rules';
import { RulesFields } from './rules-fields';
import { useWhatIf, useWorkingTimeRules } from './use-rules';

function Counts({ title, rows }: { title: string; rows: { key: string; label: string; count: number }[] }) {
  return (
    <div className="grid content-start gap-2">
      <h4 className="text-sm font-semibold text-slate-900">{title}</h4>
      <table className="w-full text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">{title}</th>
            <th scope="col">Shifts</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className="py-1 text-left font-normal text-slate-700">
                {row.label}
              </th>
              <td className="py-1 text-right font-medium text-slate-900 tabular-nums">{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Who would have broken which rule, counted per rule and per person, then shift by shift. */
function Report({ report }: { report: WhatIfReport }) {
  if (report.violations.length === 0) {
    return (
      <EmptyState title="No one would have broken these rules">
        From {easternDate(report.from)} to {easternDate(report.until)}.
      </EmptyState>
    );
  }
  return (
    <section aria-label="What-if answer" aria-live="polite" className="grid gap-4">
      <p className="text-sm text-slate-700">
        From {easternDate(report.from)} to {easternDate(report.until)}, {report.violations.length} shift
        {report.violations.length === 1 ? '' : 's'} would have broken these rules.
      </p>
      <div className="grid gap-6 sm:grid-cols-2">
        <Counts
          title="By rule"
          rows={Object.entries(report.byRule).map(([code, count]) => ({
            key: code,
            label: ruleLabel(code) ?? code,
            count,
          }))}
        />
        <Counts
          title="By person"
          rows={report.byPerson.map((p) => ({ key: p.userId, label: p.userName, count: p.violations }))}
        />
      </div>
      <details className="rounded-lg border border-slate-200 p-3 text-sm">
        <summary className="cursor-pointer font-medium text-slate-900">Every shift</summary>
        <ul className="mt-2 grid gap-2">
          {report.violations.map((v) => (
            <li key={`${v.shiftId}:${v.userId}:${v.code}`}>
              <span className="font-medium">{v.userName}</span>, {v.shift.location}{' '}
              {shiftTimeLabel(v.shift.date, v.shift.startTime, v.shift.endTime)}.{' '}
              {ruleLabel(v.code) ?? v.code}: {v.message}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

/** The form's Eastern dates as the instants the server replays between: from the first day's start to the last day's end. */
function periodOf({ from, to }: { from: string; to: string }): { from?: string; until?: string } {
  return {
    from: from ? easternInstant(from, '00:00').toISOString() : undefined,
    until: to ? easternInstant(nextDate(to), '00:00').toISOString() : undefined,
  };
}

function WhatIfForm({ initial }: { initial: RulesForm }) {
  const [form, setForm] = useState(initial);
  const [period, setPeriod] = useState({ from: '', to: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const whatIf = useWhatIf();

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkRulesForm(form);
    if (checked.errors) return setErrors(checked.errors);
    if (period.from && period.to && period.to < period.from) {
      return setErrors({ to: 'The end cannot be before the start' });
    }
    whatIf.mutate({ ...checked.rules, ...periodOf(period) });
  }

  return (
    <div className="grid gap-5">
      <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Proposed rules">
        <RulesFields
          form={form}
          errors={errors}
          onChange={(next) => {
            setForm(next);
            setErrors({});
          }}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="From (optional)" hint="Defaults to 30 days ago">
            {(p) => (
              <Input
                {...p}
                type="date"
                value={period.from}
                onChange={(e) => setPeriod({ ...period, from: e.target.value })}
              />
            )}
          </Field>
          <Field label="To (optional)" hint="Defaults to today" error={errors.to}>
            {(p) => (
              <Input
                {...p}
                type="date"
                value={period.to}
                onChange={(e) => setPeriod({ ...period, to: e.target.value })}
              />
            )}
          </Field>
        </div>
        <Button type="submit" className="justify-self-start" disabled={whatIf.isPending}>
          {whatIf.isPending ? 'Replaying...' : 'Replay Under These Rules'}
        </Button>
      </form>
      {whatIf.data && <Report report={whatIf.data} />}
    </div>
  );
}

/** docs/product.md §2.21 "What-if": a past period replayed from the event log under proposed rules; nothing is written. */
export function WhatIfCard() {
  const rules = useWorkingTimeRules();
  return (
    <Card>
      <CardHeader>
        <CardTitle>What If</CardTitle>
        <CardDescription>
          See who would have broken proposed rules over a past period. Nothing is changed.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {rules.data && <WhatIfForm key={JSON.stringify(rules.data)} initial={rulesForm(rules.data)} />}
      </CardContent>
    </Card>
  );
}
