import { type FormEvent, useState } from 'react';
import type { ManagedUser } from '../../api/types';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogHeader } from '../../components/ui/dialog';
import { Alert, Spinner } from '../../components/ui/feedback';
import { Field, Input, SelectField } from '../../components/ui/form';
import { fullName } from '../people/role-badge';
import { CredentialList } from './credential-list';
import { TimeOffList } from './time-off-list';
import {
  useAddCredential,
  useCredentials,
  useCredentialTypes,
  usePersonTimeOff,
  useRemoveCredential,
} from './use-rules';

function RecordCredentialForm({ userId }: { userId: string }) {
  const types = useCredentialTypes();
  const [name, setName] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [error, setError] = useState<string>();
  const add = useAddCredential(userId);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name) return setError('Choose a credential');
    add.mutate(
      { name, expiresOn: expiresOn || undefined },
      {
        onSuccess: () => {
          setName('');
          setExpiresOn('');
        },
      },
    );
  }

  const names = (types.data ?? []).map((type) => type.name);
  return (
    <form
      className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_11rem_auto] sm:items-start"
      onSubmit={submit}
      noValidate
    >
      <SelectField
        label="Credential"
        value={name}
        busy={types.isLoading}
        error={error}
        options={[
          {
            value: '',
            label: types.isLoading
              ? 'Loading credential types...'
              : names.length
                ? 'Select a credential'
                : 'No credential types yet',
          },
          ...names.map((n) => ({ value: n, label: n })),
        ]}
        onChange={(next) => {
          setName(next);
          setError(undefined);
        }}
      />
      <Field label="Expires on (optional)">
        {(p) => <Input {...p} type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />}
      </Field>
      <Button type="submit" className="sm:mt-7" disabled={add.isPending}>
        {add.isPending ? 'Recording...' : 'Record'}
      </Button>
    </form>
  );
}

function CredentialsSection({ user }: { user: ManagedUser }) {
  const credentials = useCredentials(user.id);
  const remove = useRemoveCredential(user.id);
  return (
    <section aria-labelledby="person-credentials-heading" className="grid gap-3">
      <h3 id="person-credentials-heading" className="font-semibold text-slate-900">
        Credentials
      </h3>
      {credentials.isLoading ? (
        <Spinner label="Loading credentials" />
      ) : credentials.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{credentials.error.message}</Alert>
      ) : (credentials.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-600">No credentials recorded.</p>
      ) : (
        <CredentialList
          credentials={credentials.data ?? []}
          owner={fullName(user)}
          onRemove={(credential) => remove.mutate(credential)}
        />
      )}
      <RecordCredentialForm userId={user.id} />
    </section>
  );
}

function TimeOffSection({ user }: { user: ManagedUser }) {
  const timeOff = usePersonTimeOff(user.id);
  return (
    <section aria-labelledby="person-time-off-heading" className="grid gap-3">
      <h3 id="person-time-off-heading" className="font-semibold text-slate-900">
        Time Off
      </h3>
      {timeOff.isLoading ? (
        <Spinner label="Loading time off" />
      ) : timeOff.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{timeOff.error.message}</Alert>
      ) : (timeOff.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-600">No time off recorded.</p>
      ) : (
        <TimeOffList items={timeOff.data ?? []} label={`Time off of ${fullName(user)}`} />
      )}
    </section>
  );
}

/** A person's credentials, which administrators record, and the time off the person has entered. */
export function PersonRulesDialog({ user, onClose }: { user: ManagedUser; onClose(): void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader
          title="Credentials & Time Off"
          description={`What ${fullName(user)} is certified for, and when they cannot work.`}
        />
        <CredentialsSection user={user} />
        <TimeOffSection user={user} />
      </DialogContent>
    </Dialog>
  );
}
