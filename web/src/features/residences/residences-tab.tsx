import { Building2, MapPin, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Residence } from '../../api/types';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { ResidenceDialog } from './residence-dialog';
import { useDeleteResidence, useResidences } from './use-residences';

type Editing = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; residence: Residence };

/** Admin Dashboard tab: the residences shifts are posted at (docs/product.md §2 Residence Management). */
export function ResidencesTab() {
  const residences = useResidences();
  const [editing, setEditing] = useState<Editing>({ mode: 'closed' });
  const [deleting, setDeleting] = useState<Residence | null>(null);
  const remove = useDeleteResidence(() => setDeleting(null));

  return (
    <section aria-labelledby="residences-heading" className="grid gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="residences-heading" className="text-lg font-semibold text-slate-900">
            Residence Management
          </h2>
          <p className="text-sm text-slate-600">Residences and programs where shifts are posted</p>
        </div>
        <Button onClick={() => setEditing({ mode: 'add' })}>
          <Plus aria-hidden />
          Add Residence
        </Button>
      </div>

      {residences.isLoading ? (
        <Spinner label="Loading residences" />
      ) : residences.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{residences.error.message}</Alert>
      ) : (residences.data ?? []).length === 0 ? (
        <EmptyState icon={<Building2 />} title="No residences yet">
          Add a residence to start posting shifts there.
        </EmptyState>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {(residences.data ?? []).map((residence) => (
            <li key={residence.id} className="grid">
              <ResidenceRow
                residence={residence}
                onEdit={() => setEditing({ mode: 'edit', residence })}
                onDelete={() => setDeleting(residence)}
              />
            </li>
          ))}
        </ul>
      )}

      <ResidenceDialog
        open={editing.mode !== 'closed'}
        onOpenChange={(open) => !open && setEditing({ mode: 'closed' })}
        residence={editing.mode === 'edit' ? editing.residence : undefined}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Residence"
        description={`Are you sure you want to delete ${deleting?.name ?? 'this residence'}? Shifts already posted there keep their location.`}
        confirmLabel={remove.isPending ? 'Deleting...' : 'Delete Residence'}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </section>
  );
}

function ResidenceRow({
  residence,
  onEdit,
  onDelete,
}: {
  residence: Residence;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold break-words text-slate-900">{residence.name}</h3>
          {residence.description && <p className="text-sm text-slate-600">{residence.description}</p>}
        </div>
        <Badge variant={residence.isActive ? 'default' : 'secondary'}>
          {residence.isActive ? 'Active' : 'Inactive'}
        </Badge>
      </div>
      {residence.address && (
        <p className="flex items-start gap-2 text-sm text-slate-700">
          <MapPin className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden />
          <span className="sr-only">Address</span>
          {residence.address}
        </p>
      )}
      <div className="mt-auto flex gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${residence.name}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="text-red-700 hover:bg-red-50"
          onClick={onDelete}
          aria-label={`Delete ${residence.name}`}
        >
          <Trash2 aria-hidden />
          Delete
        </Button>
      </div>
    </Card>
  );
}
