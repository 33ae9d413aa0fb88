import { ArrowRightLeft, CalendarX, Hourglass } from 'lucide-react';
import { useState } from 'react';
import type { Shift } from '../../api/types';
import { Button } from '../../components/ui/button';
import { usePrincipal } from '../auth/session';
import { cardActions } from '../shifts/card-actions';
import { ShiftCardFrame } from '../shifts/shift-card-frame';
import { CancelTransferButton } from '../transfers/cancel-transfer-button';
import { TransferDialog } from '../transfers/transfer-dialog';
import { useRequestDrop } from './use-my-shifts';

/** One of the user's upcoming shifts with what they can do about it (docs/product.md §2, §4). */
export function MyShiftCard({ shift }: { shift: Shift }) {
  const principal = usePrincipal();
  const actions = cardActions(shift, principal);
  const [transferOpen, setTransferOpen] = useState(false);
  const requestDrop = useRequestDrop();

  return (
    <ShiftCardFrame shift={shift} idBeside>
      <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-3">
        {actions.cancelTransfer ? (
          <CancelTransferButton shiftId={shift.id} />
        ) : (
          actions.requestTransfer && (
            <Button size="sm" variant="outline" onClick={() => setTransferOpen(true)}>
              <ArrowRightLeft aria-hidden /> Request Transfer
            </Button>
          )
        )}
        {shift.dropRequested ? (
          <span className="inline-flex h-9 items-center gap-1.5 rounded-md bg-amber-50 px-3 text-sm font-medium text-amber-900">
            <Hourglass className="size-4" aria-hidden /> Drop Requested
          </span>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700 hover:bg-red-50"
            disabled={requestDrop.isPending}
            onClick={() => requestDrop.mutate(shift.id)}
          >
            <CalendarX aria-hidden /> Request Drop
          </Button>
        )}
      </div>
      <TransferDialog shift={shift} open={transferOpen} onOpenChange={setTransferOpen} />
    </ShiftCardFrame>
  );
}
