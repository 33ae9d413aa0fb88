import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys, shiftViews } from '../../api/keys';
import { refresh } from '../../api/query-client';
import type { TransferRequest } from '../../api/types';
import { errorToast, toast } from '../toast/toast';

/** The signed-in user's transfer requests, incoming and outgoing (docs/product.md §3). */
export function useTransferRequests() {
  return useQuery({
    queryKey: keys.transferRequests,
    queryFn: () => api.get<TransferRequest[]>('/api/transfer-requests'),
  });
}

export function useRequestTransfer(shiftId: string) {
  return useMutation({
    mutationFn: (body: { toUserId: string; message?: string }) =>
      api.post(`/api/shifts/${shiftId}/transfer-request`, body),
    onSuccess: async () => {
      toast({
        title: 'Transfer Request Sent',
        description: 'Your shift transfer request has been sent successfully.',
        variant: 'success',
      });
      await refresh(shiftViews);
    },
    onError: (error) => errorToast(error, 'Failed to send transfer request'),
  });
}

/**
 * Cancels the sender's pending request for a shift. Cards know the shift, not the request, so the
 * request is looked up fresh: a cached list could predate the request being sent.
 */
export function useCancelTransfer() {
  return useMutation({
    mutationFn: async (shiftId: string) => {
      const requests = await api.get<TransferRequest[]>('/api/transfer-requests');
      const pending = requests.find(
        (t) => t.shiftId === shiftId && t.direction === 'outgoing' && t.status === 'pending',
      );
      if (!pending) throw new Error('This shift has no pending transfer request');
      await api.delete(`/api/transfer-requests/${pending.id}`);
    },
    onSuccess: async () => {
      toast({
        title: 'Transfer Request Cancelled',
        description: 'Your shift transfer request has been cancelled.',
        variant: 'success',
      });
      await refresh(shiftViews);
    },
    onError: (error) => errorToast(error, 'Failed to cancel transfer request'),
  });
}

export function useRespondToTransfer() {
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'accepted' | 'declined' }) =>
      api.patch(`/api/transfer-requests/${id}`, { status }),
    onSuccess: async (_answer, { status }) => {
      toast(
        status === 'accepted'
          ? {
              title: 'Transfer Accepted',
              description: 'The shift has been added to your schedule.',
              variant: 'success',
            }
          : { title: 'Transfer Declined', description: 'The sender keeps the shift.' },
      );
      await refresh(shiftViews);
    },
    onError: (error) => errorToast(error, 'Failed to respond to transfer request'),
  });
}
