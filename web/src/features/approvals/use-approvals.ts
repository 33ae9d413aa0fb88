import { can } from '@shiftcover/domain';
import {
  type InfiniteData,
  type QueryKey,
  useInfiniteQuery,
  useMutation,
  useQuery,
} from '@tanstack/react-query';
import { api, type Page, withQuery } from '../../api/client';
import { keys, shiftViews } from '../../api/keys';
import { queryClient, refresh, updateShiftInLists } from '../../api/query-client';
import { usePrincipal } from '../auth/session';
import { errorToast, toast } from '../toast/toast';
import { type ClaimDecision, decidedShift } from './claim-decision';
import { PENDING_PAGE_SIZE, pendingListOf, withoutClaim } from './pending-list';
import type { DropRequest, PendingShift, ShiftAlternative } from './types';

/**
 * The claims awaiting approval at `location`, a server page at a time: the first page on its own,
 * `fetchNextPage` following the answer's next link (docs/product.md §2.12, §4.7.1).
 */
export function usePendingApprovals(location = 'all') {
  const allowed = can(usePrincipal(), 'viewPendingApprovals');
  return useInfiniteQuery({
    queryKey: keys.pending(location),
    queryFn: ({ pageParam }) => api.page<PendingShift>(pageParam),
    initialPageParam: withQuery('/api/shifts/pending', { location, limit: PENDING_PAGE_SIZE }),
    getNextPageParam: (last: Page<PendingShift>) => last.next ?? undefined,
    select: pendingListOf,
    enabled: allowed,
  });
}

/** Who could be assigned the shift instead of its claimant, read once `wanted`. */
export function useAlternatives(shiftId: string, wanted: boolean) {
  return useQuery({
    queryKey: keys.alternatives(shiftId),
    queryFn: () => api.get<ShiftAlternative[]>(`/api/shifts/${shiftId}/alternatives`),
    enabled: wanted,
  });
}

export function useDropRequests() {
  const allowed = can(usePrincipal(), 'viewDropRequests');
  return useQuery({
    queryKey: keys.dropRequests,
    queryFn: () => api.get<DropRequest[]>('/api/admin/drop-requests'),
    enabled: allowed,
  });
}

/** For the admin tab badge: claims awaiting this admin's approval, loaded or not. */
export function usePendingApprovalsCount(): number | undefined {
  return usePendingApprovals().data?.total;
}

/** For the admin tab badge: drop requests awaiting a decision. */
export function useDropRequestsCount(): number | undefined {
  return useDropRequests().data?.length;
}

const claimFailures: Record<ClaimDecision, string> = {
  approve: 'Failed to approve shift',
  deny: 'Failed to deny shift',
};

/**
 * Approve or deny a claim (docs/product.md §4): the pending list and every shift list change at once and
 * are put back if the server refuses.
 */
export function useDecideClaim() {
  return useMutation({
    mutationFn: ({ shiftId, decision }: { shiftId: string; decision: ClaimDecision }) =>
      api.post<{ message?: string }>(`/api/shifts/${shiftId}/${decision}`),
    onMutate: async ({ shiftId, decision }) => {
      await queryClient.cancelQueries({ queryKey: ['pending'] });
      await queryClient.cancelQueries({ queryKey: ['shifts'] });
      const before: [QueryKey, unknown][] = [
        ...queryClient.getQueriesData({ queryKey: ['pending'] }),
        ...queryClient.getQueriesData({ queryKey: ['shifts'] }),
      ];
      queryClient.setQueriesData<InfiniteData<Page<PendingShift>>>({ queryKey: ['pending'] }, (data) =>
        withoutClaim(data, shiftId),
      );
      updateShiftInLists(shiftId, (shift) => decidedShift(shift, decision));
      return { before };
    },
    onError: (error, { decision }, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
      errorToast(error, claimFailures[decision]);
    },
    onSuccess: (answer, { decision }) => {
      toast({
        title: decision === 'approve' ? 'Shift Approved' : 'Shift Denied',
        description: answer?.message,
        variant: decision === 'approve' ? 'success' : 'default',
      });
    },
    onSettled: () => refresh(shiftViews),
  });
}

const dropFailures: Record<ClaimDecision, string> = {
  approve: 'Failed to approve drop request',
  deny: 'Failed to deny drop request',
};

export function useDecideDrop() {
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: ClaimDecision }) =>
      api.post<{ message?: string }>(`/api/admin/drop-requests/${id}/${decision}`),
    onSuccess: async (answer, { decision }) => {
      toast({
        title: decision === 'approve' ? 'Drop Request Approved' : 'Drop Request Denied',
        description: answer?.message,
        variant: decision === 'approve' ? 'success' : 'default',
      });
      await refresh(shiftViews);
    },
    onError: (error, { decision }) => errorToast(error, dropFailures[decision]),
  });
}
