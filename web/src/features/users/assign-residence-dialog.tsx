import { assignResidenceSchema } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { ManagedUser } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { SelectField } from '../../components/ui/form';
import { fieldErrors } from '../../lib/form-errors';
import { fullName } from '../people/role-badge';
import { useResidences } from '../residences/use-residences';
import { useAssignResidence } from './use-users';

/** The residence an admin account looks after (docs/product.md §6 "Assign Residence"). */
export function AssignResidenceDialog({ user, onClose }: { user: ManagedUser; onClose(): void }) {
  const residences = useResidences();
  const [residenceId, setResidenceId] = useState(user.assignedResidenceId ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const assign = useAssignResidence(user.id);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = assignResidenceSchema.safeParse({ residenceId });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    assign.mutate(parsed.data.residenceId, { onSuccess: onClose });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader
          title="Assign Residence"
          description={`Choose the residence ${fullName(user)} administers.`}
        />
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <SelectField
            label="Residence"
            error={errors.residenceId}
            value={residenceId}
            disabled={residences.isLoading}
            options={[
              { value: '', label: residences.isLoading ? 'Loading residences...' : 'Select a residence' },
              ...(residences.data ?? []).map((r) => ({ value: r.id, label: r.name })),
            ]}
            onChange={(id) => {
              setResidenceId(id);
              setErrors({});
            }}
          />
          <DialogFormFooter
            onCancel={onClose}
            submitLabel="Assign Residence"
            pending={assign.isPending}
            pendingLabel="Assigning..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
