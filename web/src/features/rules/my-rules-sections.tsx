import { easternToday } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { TimeOff } from '../../api/types';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Alert, Spinner } from '../../components/ui/feedback';
import { Field, Input } from '../../components/ui/form';
import { useSignedInUser } from '../auth/session';
import { CredentialList } from './credential-list';
import { type TimeOffForm, timeOffErrors } from './rules';
import { TimeOffList, timeOffLabel } from './time-off-list';
import { useAddTimeOff, useCredentials, useDeleteTimeOff, useMyTimeOff } from './use-rules';

/** The signed-in person's credentials and their expiry, as administrators recorded them (read-only). */
export function MyCredentials() {
  const me = useSignedInUser();
  const credentials = useCredentials(me.id);
  if (credentials.isLoading) return <Spinner label="Loading your credentials" />;
  if (credentials.isError) {
    return <Alert className="border-red-200 bg-red-50 text-red-900">{credentials.error.message}</Alert>;
  }
  if ((credentials.data ?? []).length === 0) {
    return (
      <p className="text-sm text-slate-600">
        No credentials recorded. Ask your administrator to record your certificates.
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <CredentialList credentials={credentials.data ?? []} owner="you" />
      <p className="text-xs text-slate-500">Your administrator records and renews these.</p>
    </div>
  );
}

const emptyForm: TimeOffForm = { startDate: '', endDate: '', note: '' };

function AddTimeOffForm() {
  const [form, setForm] = useState(emptyForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useAddTimeOff();
  const today = easternToday(new Date());
  const set = (field: keyof TimeOffForm, value: string) => {
    setForm({ ...form, [field]: value });
    setErrors({});
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = timeOffErrors(form);
    if (Object.keys(found).length) return setErrors(found);
    const note = form.note.trim();
    add.mutate(
      { startDate: form.startDate, endDate: form.endDate, note: note || undefined },
      { onSuccess: () => setForm(emptyForm) },
    );
  }

  return (
    <form className="grid gap-3 sm:grid-cols-2" onSubmit={submit} noValidate aria-label="Add time off">
      <Field label="First day off" error={errors.startDate}>
        {(p) => (
          <Input
            {...p}
            type="date"
            min={today}
            value={form.startDate}
            onChange={(e) => set('startDate', e.target.value)}
          />
        )}
      </Field>
      <Field label="Last day off" error={errors.endDate}>
        {(p) => (
          <Input
            {...p}
            type="date"
            min={form.startDate || today}
            value={form.endDate}
            onChange={(e) => set('endDate', e.target.value)}
          />
        )}
      </Field>
      <Field label="Note (optional)" className="sm:col-span-2">
        {(p) => (
          <Input
            {...p}
            placeholder="e.g. Family visit"
            value={form.note}
            onChange={(e) => set('note', e.target.value)}
          />
        )}
      </Field>
      <Button type="submit" className="justify-self-start" disabled={add.isPending}>
        {add.isPending ? 'Adding...' : 'Add Time Off'}
      </Button>
    </form>
  );
}

/** The days the signed-in person cannot work: shifts then are not theirs to claim or be given. */
export function MyTimeOff() {
  const timeOff = useMyTimeOff();
  const remove = useDeleteTimeOff();
  const [deleting, setDeleting] = useState<TimeOff | null>(null);
  return (
    <div className="grid gap-4">
      {timeOff.isLoading ? (
        <Spinner label="Loading your time off" />
      ) : timeOff.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{timeOff.error.message}</Alert>
      ) : (timeOff.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-600">No time off recorded.</p>
      ) : (
        <TimeOffList items={timeOff.data ?? []} label="Your time off" onDelete={setDeleting} />
      )}
      <AddTimeOffForm />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Time Off"
        description={`Delete your time off on ${deleting ? timeOffLabel(deleting) : ''}? You may be offered shifts on those days again.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
      />
    </div>
  );
}
