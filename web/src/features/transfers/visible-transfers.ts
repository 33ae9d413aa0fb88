import type { TransferRequest } from '../../api/types';

/**
 * What the Transfer Requests list shows: requests sent to the user that were not withdrawn, and
 * the user's own requests still awaiting a reply; the ones waiting on someone come first.
 */
export function visibleTransfers(requests: TransferRequest[]): TransferRequest[] {
  const shown = requests.filter((t) =>
    t.direction === 'incoming' ? t.status !== 'cancelled' : t.status === 'pending',
  );
  const waiting = (t: TransferRequest) => (t.status === 'pending' ? 0 : 1);
  return shown.sort((a, b) => waiting(a) - waiting(b) || b.requestedAt.localeCompare(a.requestedAt));
}
