import { can } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { WorkingTimeRules } from '../../api/types';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Alert, Spinner } from '../../components/ui/feedback';
import { usePrincipal } from '../auth/session';
import { checkRulesForm, rulesForm } from './rules';
import { RulesFields } from './rules-fields';
import { useSaveWorkingTimeRules, useWorkingTimeRules } from './use-rules';

function RulesEditor({ rules, editable }: { rules: WorkingTimeRules; editable: boolean }) {
  const [form, setForm] = useState(() => rulesForm(rules));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveWorkingTimeRules();

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkRulesForm(form);
    if (checked.errors) return setErrors(checked.errors);
    save.mutate(checked.rules);
  }

  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Current rules">
      <RulesFields
        form={form}
        errors={errors}
        disabled={!editable}
        onChange={(next) => {
          setForm(next);
          setErrors({});
        }}
      />
      {editable ? (
        <Button type="submit" className="justify-self-start" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Rules'}
        </Button>
      ) : (
        <p className="text-sm text-slate-600">Only a super admin or a developer can change these rules.</p>
      )}
    </form>
  );
}

/**
 * docs/product.md §2.21: the organisation's working-time rules. Every claim, transfer and assignment
 * is checked against them; super admins and developers change them, and each change is recorded.
 */
export function WorkingTimeRulesCard() {
  const rules = useWorkingTimeRules();
  const editable = can(usePrincipal(), 'changeWorkingTimeRules');
  return (
    <Card>
      <CardHeader>
        <CardTitle>Working-Time Rules</CardTitle>
        <CardDescription>
          Checked on every claim, transfer and assignment. Weeks run Sunday to Saturday, Eastern time.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {rules.isLoading ? (
          <Spinner label="Loading working-time rules" />
        ) : rules.isError || !rules.data ? (
          <Alert className="border-red-200 bg-red-50 text-red-900">{rules.error?.message}</Alert>
        ) : (
          // Keyed by the rules so that a change saved elsewhere refills the form.
          <RulesEditor key={JSON.stringify(rules.data)} rules={rules.data} editable={editable} />
        )}
      </CardContent>
    </Card>
  );
}
