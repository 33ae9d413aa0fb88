import { residenceSchema } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { Residence } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { Field, Input, Textarea } from '../../components/ui/form';
import { fieldErrors } from '../../lib/form-errors';
import { useSaveResidence } from './use-residences';

/** Add a residence, or edit one when `residence` is given (docs/product.md §5: a trimmed, required name). */
export function ResidenceDialog({
  open,
  onOpenChange,
  residence,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  residence?: Residence;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader
          title={residence ? 'Edit Residence' : 'Add Residence'}
          description={
            residence ? 'Update the residence details.' : 'Add a residence where shifts can be posted.'
          }
        />
        {/* Mounted afresh each time the dialog opens, so the form starts from the residence. */}
        <ResidenceForm residence={residence} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ResidenceForm({ residence, onDone }: { residence?: Residence; onDone: () => void }) {
  const [name, setName] = useState(residence?.name ?? '');
  const [description, setDescription] = useState(residence?.description ?? '');
  const [address, setAddress] = useState(residence?.address ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveResidence(onDone);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = residenceSchema.safeParse({ name, description, address });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate({ id: residence?.id, details: parsed.data });
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <Field label="Name" error={errors.name}>
        {(props) => (
          <Input
            {...props}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. Maple House"
          />
        )}
      </Field>
      <Field label="Description (optional)" error={errors.description}>
        {(props) => (
          <Textarea {...props} value={description} onChange={(e) => setDescription(e.target.value)} />
        )}
      </Field>
      <Field label="Address (optional)" error={errors.address}>
        {(props) => <Input {...props} value={address} onChange={(e) => setAddress(e.target.value)} />}
      </Field>
      <DialogFormFooter
        onCancel={onDone}
        submitLabel={residence ? 'Update Residence' : 'Add Residence'}
        pending={save.isPending}
        pendingLabel="Saving..."
      />
    </form>
  );
}
