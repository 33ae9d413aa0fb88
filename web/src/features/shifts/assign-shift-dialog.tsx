import { isAssignable } from '@shiftcover/domain';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import type { ManagedUser, Shift } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { StaffMemberField } from '../people/staff-member-field';
import { toast } from '../toast/toast';
import { ShiftSummaryLine } from '../transfers/shift-summary-line';
import { useAssignShift } from './use-shifts';

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
  const users = useQuery({
    queryKey: keys.users(),
    queryFn: () => api.get<ManagedUser[]>('/api/users'),
    enabled: open,
  });
  const staff = (users.data ?? []).filter((u) =>
    isAssignable({ userId: u.id, role: u.role, superAdmin: u.superAdmin }),
  );
  const assign = useAssignShift(shift.id);

  function close(next: boolean) {
    if (!next) setStaffId('');
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
    assign.mutate(staffId, { onSuccess: () => close(false) });
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
            onChange={setStaffId}
          />
          <DialogFormFooter
            onCancel={() => close(false)}
            submitLabel="Assign Shift"
            pending={assign.isPending}
            pendingLabel="Assigning..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
