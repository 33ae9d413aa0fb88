import { isAssignable } from '@shiftcover/domain';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import type { Eligibility, ManagedUser, Shift } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { Alert } from '../../components/ui/feedback';
import { Checkbox, Field, Label, Textarea } from '../../components/ui/form';
import { nameAndUsername, StaffMemberField } from '../people/staff-member-field';
import { ReasonList } from '../rules/reason-list';
import { canOverride, ruleLabel } from '../rules/rules';
import { useEligibilityOf } from '../rules/use-rules';
import { toast } from '../toast/toast';
import { ShiftSummaryLine } from '../transfers/shift-summary-line';
import { useAssignShift } from './use-shifts';

/** 'Sam Patel (@sam.patel): not eligible, Rest between shifts' marks a person the rules keep off the shift. */
function staffLabel(person: ManagedUser, eligibility: Eligibility | undefined): string {
  const name = nameAndUsername(person);
  if (!eligibility || eligibility.eligible) return name;
  return `${name}: not eligible, ${eligibility.reasons.map((r) => ruleLabel(r.code) ?? r.message).join(', ')}`;
}

/**
 * What the chosen person's reasons allow: nothing in the way, an override with a reason (working-time
 * rules only), or nothing at all.
 */
function WhyNot({
  eligibility,
  override,
  reason,
  reasonError,
  onOverride,
  onReason,
}: {
  eligibility: Eligibility;
  override: boolean;
  reason: string;
  reasonError?: string;
  onOverride(override: boolean): void;
  onReason(reason: string): void;
}) {
  const overridable = canOverride(eligibility.reasons);
  return (
    <div className="grid gap-3">
      <Alert className="grid gap-1 border-amber-300 bg-amber-50 text-amber-950" role="status">
        <p className="font-semibold">This staff member cannot take this shift</p>
        <ReasonList reasons={eligibility.reasons} />
        {!overridable && <p>A missing credential or time off cannot be overridden.</p>}
      </Alert>
      {overridable && (
        <>
          <div className="flex items-center gap-2">
            <Checkbox id="assign-anyway" checked={override} onChange={(e) => onOverride(e.target.checked)} />
            <Label htmlFor="assign-anyway">Assign anyway, against the working-time rules</Label>
          </div>
          {override && (
            <Field
              label="Reason for the override"
              error={reasonError}
              hint="Recorded in the shift's history and the audit log."
            >
              {(p) => <Textarea {...p} value={reason} onChange={(e) => onReason(e.target.value)} />}
            </Field>
          )}
        </>
      )}
    </div>
  );
}

/** docs/product.md §2 "Assign Shift to Staff": administrators hand a shift to a staff member directly. */
export function AssignShiftDialog({
  shift,
  open,
  onOpenChange,
}: {
  shift: Shift;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const [staffId, setStaffId] = useState('');
  const [override, setOverride] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const users = useQuery({
    queryKey: keys.users(),
    queryFn: () => api.get<ManagedUser[]>('/api/users'),
    enabled: open,
  });
  const staff = (users.data ?? []).filter((u) =>
    isAssignable({ userId: u.id, role: u.role, superAdmin: u.superAdmin }),
  );
  const eligibility = useEligibilityOf(
    shift.id,
    staff.map((u) => u.id),
    open,
  );
  const assign = useAssignShift(shift.id);
  const chosen = staffId ? eligibility.get(staffId) : undefined;
  const blocked = Boolean(chosen && !chosen.eligible && !(override && canOverride(chosen.reasons)));

  function choose(userId: string) {
    setStaffId(userId);
    setOverride(false);
    setReason('');
    setReasonError(undefined);
  }

  function close(next: boolean) {
    if (!next) choose('');
    onOpenChange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!staffId) {
      toast({
        title: 'No Staff Selected',
        description: 'Please select a staff member to assign this shift to.',
        variant: 'destructive',
      });
      return;
    }
    if (override && !reason.trim()) return setReasonError('A reason is required to assign anyway');
    const assignment = override ? { staffId, override: { reason: reason.trim() } } : { staffId };
    assign.mutate(assignment, { onSuccess: () => close(false) });
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader title="Assign Shift to Staff" description={<ShiftSummaryLine shift={shift} />} />
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <StaffMemberField
            people={staff}
            loading={users.isLoading}
            prompt={staff.length ? 'Select a staff member' : 'No staff members available'}
            value={staffId}
            onChange={choose}
            labelOf={(person) => staffLabel(person, eligibility.get(person.id))}
          />
          {chosen && !chosen.eligible && (
            <WhyNot
              eligibility={chosen}
              override={override}
              reason={reason}
              reasonError={reasonError}
              onOverride={setOverride}
              onReason={(next) => {
                setReason(next);
                setReasonError(undefined);
              }}
            />
          )}
          <DialogFormFooter
            onCancel={() => close(false)}
            submitLabel={override ? 'Assign Anyway' : 'Assign Shift'}
            pending={assign.isPending}
            pendingLabel="Assigning..."
            disabled={blocked}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
