import { Undo2 } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useCancelTransfer } from './use-transfers';

/** The holder withdraws the transfer request pending on their shift. */
export function CancelTransferButton({ shiftId }: { shiftId: string }) {
  const cancel = useCancelTransfer();
  return (
    <Button size="sm" variant="outline" disabled={cancel.isPending} onClick={() => cancel.mutate(shiftId)}>
      <Undo2 aria-hidden /> Cancel Transfer Request
    </Button>
  );
}
