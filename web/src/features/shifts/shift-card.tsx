import { can } from '@shiftcover/domain';
import { lazyRouteComponent } from '@tanstack/react-router';
import { ArrowRightLeft, Pencil, Trash2, UserCheck, UserPlus } from 'lucide-react';
import { memo, Suspense, useState } from 'react';
import type { Shift } from '../../api/types';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { cn } from '../../lib/cn';
import { usePrincipal } from '../auth/session';
import { fullName } from '../people/role-badge';
import { ClaimControl } from '../rules/claim-control';
import { ShiftHistoryButton } from '../shift-history/shift-history-dialog';
import { CancelTransferButton } from '../transfers/cancel-transfer-button';
import { cardActions } from './card-actions';
import { ShiftCardFrame } from './shift-card-frame';
import { useDeleteShift } from './use-shifts';

// Each dialog's form is fetched when first opened: a list draws many cards, and most are never edited.
const TransferDialog = lazyRouteComponent(() => import('../transfers/transfer-dialog'), 'TransferDialog');
const AssignShiftDialog = lazyRouteComponent(() => import('./assign-shift-dialog'), 'AssignShiftDialog');
const EditShiftDialog = lazyRouteComponent(() => import('./edit-shift-dialog'), 'EditShiftDialog');

type OpenDialog = 'transfer' | 'assign' | 'edit' | 'delete' | null;

/** docs/product.md §2 "Shift card": a ring marks emergency, urgent and the user's own shifts. */
function ringOf(shift: Shift, own: boolean): string {
  if (shift.priority === 'emergency') return 'ring-2 ring-pink-500';
  if (shift.priority === 'urgent') return 'ring-2 ring-red-400';
  return own ? 'ring-2 ring-blue-400' : '';
}

/**
 * One shift in a list, with the buttons this user may press on it. `explainClaim` (on by default)
 * says why the user may not claim the shift instead of offering Claim Shift; Shift Management,
 * an administrator's list of every shift in every status, leaves it out and keeps the button.
 * Drawn again only when its shift changes: a list's cards stay as they are while its later pages
 * come in.
 */
export const ShiftCard = memo(function ShiftCard({
  shift,
  explainClaim = true,
}: {
  shift: Shift;
  explainClaim?: boolean;
}) {
  const principal = usePrincipal();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const remove = useDeleteShift();
  const own = shift.assignedUserId === principal.userId;
  const actions = cardActions(shift, principal);
  const onOpenChange = (open: boolean) => !open && setDialog(null);

  return (
    <ShiftCardFrame shift={shift} className={cn('content-start', ringOf(shift, own))}>
      {shift.assignedUser && (
        <p className="flex items-center gap-2 text-sm text-slate-700">
          <UserCheck className="size-4 shrink-0 text-slate-400" aria-hidden />
          <span>
            Assigned to <span className="font-medium">{own ? 'you' : fullName(shift.assignedUser)}</span>
          </span>
        </p>
      )}
      <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-3 empty:hidden">
        {actions.claim && <ClaimControl shift={shift} explain={explainClaim} />}
        {actions.requestTransfer && (
          <Button size="sm" variant="outline" onClick={() => setDialog('transfer')}>
            <ArrowRightLeft aria-hidden /> Request Transfer
          </Button>
        )}
        {actions.cancelTransfer && <CancelTransferButton shiftId={shift.id} />}
        {actions.assign && (
          <Button size="sm" variant="outline" onClick={() => setDialog('assign')}>
            <UserPlus aria-hidden /> Assign
          </Button>
        )}
        {actions.edit && (
          <Button size="sm" variant="outline" onClick={() => setDialog('edit')}>
            <Pencil aria-hidden /> Edit
          </Button>
        )}
        {actions.delete && (
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700 hover:bg-red-50"
            onClick={() => setDialog('delete')}
          >
            <Trash2 aria-hidden /> Delete
          </Button>
        )}
        {can(principal, 'seeShiftIds') && (
          <ShiftHistoryButton shiftId={shift.id} label={`${shift.location} ${shift.type} Shift`} />
        )}
      </div>
      <Suspense fallback={null}>
        {dialog === 'transfer' && <TransferDialog shift={shift} open onOpenChange={onOpenChange} />}
        {dialog === 'assign' && <AssignShiftDialog shift={shift} open onOpenChange={onOpenChange} />}
        {dialog === 'edit' && <EditShiftDialog shift={shift} open onOpenChange={onOpenChange} />}
      </Suspense>
      {dialog === 'delete' && (
        <ConfirmDialog
          open
          onOpenChange={onOpenChange}
          title="Delete Shift"
          description="Are you sure you want to delete this shift?"
          confirmLabel="Delete"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(shift.id, { onSuccess: () => setDialog(null) })}
        />
      )}
    </ShiftCardFrame>
  );
});
