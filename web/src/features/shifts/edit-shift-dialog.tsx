import { easternToday } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { Shift } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { usePrincipal } from '../auth/session';
import { checkShiftForm, priorityChoices, shiftForm } from './shift-form';
import { ShiftFormFields } from './shift-form-fields';
import { useUpdateShift } from './use-shifts';

/**
 * docs/product.md §2 "Edit Shift": changes are saved at once; an outside click does not throw them away.
 * Mounted only while open, so it always starts from the shift as it is now.
 */
export function EditShiftDialog({
  shift,
  open,
  onOpenChange,
}: {
  shift: Shift;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const principal = usePrincipal();
  const [values, setValues] = useState(() => shiftForm(shift));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateShift(shift);

  function close(next: boolean) {
    if (!next) setErrors({});
    onOpenChange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkShiftForm(values);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    update.mutate(checked.details, { onSuccess: () => close(false) });
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-[600px]" dismissOnOutsideClick={false}>
        <DialogHeader
          title="Edit Shift"
          description="Update the shift details. Changes will be saved immediately."
        />
        <form className="grid gap-5" onSubmit={submit} noValidate>
          <ShiftFormFields
            values={values}
            errors={errors}
            onChange={(next) => {
              // A field's message goes as soon as the user changes the form again.
              setValues(next);
              setErrors({});
            }}
            priorities={priorityChoices(principal.superAdmin, shift.priority)}
            // The shift's own date stays valid even once it has passed.
            minDate={[easternToday(new Date()), shift.date].sort()[0] ?? shift.date}
          />
          <DialogFormFooter
            onCancel={() => close(false)}
            submitLabel="Update Shift"
            pending={update.isPending}
            pendingLabel="Updating..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
