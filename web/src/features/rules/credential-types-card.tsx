import { BadgeCheck, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { CredentialType } from '../../api/types';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { Field, Input } from '../../components/ui/form';
import { useAddCredentialType, useCredentialTypes, useDeleteCredentialType } from './use-rules';

function AddCredentialTypeForm() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const add = useAddCredentialType();

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError('Name is required');
    add.mutate(trimmed, { onSuccess: () => setName('') });
  }

  return (
    <form className="flex flex-wrap items-start gap-2" onSubmit={submit} noValidate>
      <Field label="New credential type" error={error} className="min-w-0 flex-1 basis-60">
        {(p) => (
          <Input
            {...p}
            placeholder="e.g. Medication administration"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
          />
        )}
      </Field>
      <Button type="submit" className="sm:mt-7" disabled={add.isPending}>
        <Plus aria-hidden /> {add.isPending ? 'Adding...' : 'Add Credential Type'}
      </Button>
    </form>
  );
}

/** The organisation's list of credentials that people hold and shifts require (docs/product.md §2.21). */
export function CredentialTypesCard() {
  const types = useCredentialTypes();
  const [deleting, setDeleting] = useState<CredentialType | null>(null);
  const remove = useDeleteCredentialType();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Credential Types</CardTitle>
        <CardDescription>The credentials you record for staff and require on shifts.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {types.isLoading ? (
          <Spinner label="Loading credential types" />
        ) : types.isError ? (
          <Alert className="border-red-200 bg-red-50 text-red-900">{types.error.message}</Alert>
        ) : (types.data ?? []).length === 0 ? (
          <EmptyState icon={<BadgeCheck />} title="No credential types yet">
            Add one, such as CPR or Driver.
          </EmptyState>
        ) : (
          <ul
            aria-label="Credential types"
            className="divide-y divide-slate-200 rounded-lg border border-slate-200"
          >
            {(types.data ?? []).map((type) => (
              <li key={type.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="text-sm text-slate-900">{type.name}</span>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-700 hover:bg-red-50"
                  aria-label={`Remove ${type.name}`}
                  onClick={() => setDeleting(type)}
                >
                  <Trash2 aria-hidden /> Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <AddCredentialTypeForm />
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Remove Credential Type"
        description={`Remove ${deleting?.name ?? ''} from the list? It will no longer be offered for people or shifts.`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
      />
    </Card>
  );
}
