import { ArrowRightLeft, Check, Inbox, Send, X } from 'lucide-react';
import type { TransferRequest } from '../../api/types';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState, Spinner } from '../../components/ui/feedback';
import { fullName } from '../people/role-badge';
import { ShiftSummaryLine } from './shift-summary-line';
import { useCancelTransfer, useRespondToTransfer, useTransferRequests } from './use-transfers';
import { visibleTransfers } from './visible-transfers';

const statusStyles: Record<TransferRequest['status'], string> = {
  pending: 'bg-yellow-100 text-yellow-900',
  accepted: 'bg-emerald-100 text-emerald-900',
  declined: 'bg-slate-200 text-slate-800',
  cancelled: 'bg-slate-200 text-slate-800',
};

function TransferItem({ request }: { request: TransferRequest }) {
  const respond = useRespondToTransfer();
  const cancel = useCancelTransfer();
  const incoming = request.direction === 'incoming';
  const busy = respond.isPending || cancel.isPending;
  return (
    <li className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex min-w-0 items-center gap-2 text-sm font-medium text-slate-900">
          {incoming ? (
            <Inbox className="size-4 shrink-0 text-teal-700" aria-hidden />
          ) : (
            <Send className="size-4 shrink-0 text-slate-500" aria-hidden />
          )}
          <span className="min-w-0 break-words">
            {incoming ? (
              <>
                From {fullName(request.fromUser)}
                {request.fromUser.username && (
                  <span className="font-normal text-slate-500"> @{request.fromUser.username}</span>
                )}
              </>
            ) : (
              <>Sent to {fullName(request.toUser)}</>
            )}
          </span>
        </p>
        <Badge className={`border-transparent capitalize ${statusStyles[request.status]}`}>
          {request.status}
        </Badge>
      </div>
      <p className="text-sm text-slate-700">
        <ShiftSummaryLine shift={request.shift} />
      </p>
      {request.message && (
        <blockquote className="border-l-2 border-slate-300 pl-3 text-sm text-slate-600 italic">
          {request.message}
        </blockquote>
      )}
      {request.status === 'pending' &&
        (incoming ? (
          <div className="flex gap-2">
            <Button
              size="sm"
              className="flex-1"
              disabled={busy}
              onClick={() => respond.mutate({ id: request.id, status: 'accepted' })}
            >
              <Check aria-hidden /> Accept
            </Button>
            <Button
              size="sm"
              variant="outline"
              className="flex-1"
              disabled={busy}
              onClick={() => respond.mutate({ id: request.id, status: 'declined' })}
            >
              <X aria-hidden /> Decline
            </Button>
          </div>
        ) : (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => cancel.mutate(request.shiftId)}>
            Cancel Transfer Request
          </Button>
        ))}
    </li>
  );
}

/** docs/product.md §2 "Transfer Requests": shifts colleagues offered the user, and the user's own offers. */
export function TransferRequestsList() {
  const requests = useTransferRequests();
  const shown = visibleTransfers(requests.data ?? []);
  if (requests.isLoading) return <Spinner label="Loading transfer requests" />;
  if (shown.length === 0) {
    return (
      <EmptyState icon={<ArrowRightLeft />} title="No transfer requests">
        Shifts colleagues send you appear here.
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-3">
      {shown.map((request) => (
        <TransferItem key={request.id} request={request} />
      ))}
    </ul>
  );
}
