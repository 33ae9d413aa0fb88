import {
  easternToday,
  formatShiftDate,
  priorityLabels,
  type ShiftDetails,
  timeRangeLabel,
} from '@shiftcover/domain';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogFooter,
  DialogFormFooter,
  DialogHeader,
} from '../../components/ui/dialog';
import { checkNewShift, newShiftForm, priorityChoices } from './shift-form';
import { ShiftFormFields } from './shift-form-fields';
import { useCreateShift } from './use-shifts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_minmax(0,1fr)] gap-2 py-1.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** The review step: what will be posted, before anything is sent. */
function Review({ details }: { details: ShiftDetails }) {
  return (
    <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200 px-4 text-sm">
      <Row label="Location">{details.location}</Row>
      <Row label="Date">{formatShiftDate(details.date)}</Row>
      <Row label="Time">{timeRangeLabel(details.startTime, details.endTime)}</Row>
      <Row label="Shift Type">{details.type}</Row>
      <Row label="Priority">{priorityLabels[details.status]}</Row>
      {details.requiredCredentials?.length ? (
        <Row label="Credentials">{details.requiredCredentials.join(', ')}</Row>
      ) : null}
      {details.requirements && <Row label="Requirements">{details.requirements}</Row>}
      {details.notes && <Row label="Notes">{details.notes}</Row>}
    </dl>
  );
}

/** docs/product.md §2 "Create New Shift": fill in the form, review it, then post it. */
export function CreateShiftDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const [values, setValues] = useState(() => newShiftForm(new Date()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [review, setReview] = useState<ShiftDetails | null>(null);
  const create = useCreateShift();

  function close(next: boolean) {
    if (!next) {
      setValues(newShiftForm(new Date()));
      setErrors({});
      setReview(null);
    }
    onOpenChange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkNewShift(values, new Date());
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setReview(checked.details);
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-[600px]">
        {review ? (
          <>
            <DialogHeader
              title="Confirm Shift Creation"
              description="Please review the shift details. Staff will be able to claim it once it is created."
            />
            <Review details={review} />
            <DialogFooter>
              <Button variant="outline" onClick={() => setReview(null)}>
                Back to Edit
              </Button>
              <Button
                disabled={create.isPending}
                onClick={() => create.mutate(review, { onSuccess: () => close(false) })}
              >
                {create.isPending ? 'Creating...' : 'Create Shift'}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader title="Create New Shift" description="Post a shift for staff to claim." />
            <form className="grid gap-5" onSubmit={submit} noValidate>
              <ShiftFormFields
                values={values}
                errors={errors}
                onChange={(next) => {
                  // A field's message goes as soon as the user changes the form again.
                  setValues(next);
                  setErrors({});
                }}
                priorities={priorityChoices(true)}
                minDate={easternToday(new Date())}
                withPresets
              />
              <DialogFormFooter onCancel={() => close(false)} submitLabel="Review Shift" />
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
