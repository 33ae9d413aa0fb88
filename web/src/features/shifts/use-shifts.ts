import type { ShiftDetails, WrittenShiftView } from '@shiftcover/domain';
import { type QueryKey, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, withQuery } from '../../api/client';
import { keys, shiftViews } from '../../api/keys';
import { queryClient, refresh, updateShiftInLists } from '../../api/query-client';
import type { Shift } from '../../api/types';
import { useSignedInUser } from '../auth/session';
import { errorToast, toast } from '../toast/toast';
import { claimedShift, claimFailureToast } from './claim';
import type { ShiftFilters } from './shift-filters';
import { readUntil, shiftListOf, shiftListQuery } from './shift-list';

/**
 * The Available Shifts list with the screen's filters: the first page as soon as it comes, and
 * later pages while it holds fewer than `wanted` shifts (docs/product.md §2.7, §4.7.1).
 */
export function useShifts(filters: ShiftFilters, wanted: number) {
  useEffect(() => readUntil(queryClient, filters, wanted), [filters, wanted]);
  return useInfiniteQuery({ ...shiftListQuery(filters), select: shiftListOf });
}

/** The shifts dated `from` to `to` (Eastern dates, both included) with the screen's filters, every page. */
export function useShiftsBetween(filters: ShiftFilters, { from, to }: { from: string; to: string }) {
  return useQuery({
    queryKey: keys.shifts({ ...filters, from, to }),
    queryFn: () => api.everyPage<Shift>(withQuery('/api/shifts', { ...filters, from, to })),
  });
}

/** The Quick Stats card's number: open shifts everywhere. */
export function useOpenShiftCount() {
  return useQuery({
    queryKey: keys.stats,
    queryFn: () => api.get<{ openShifts: number }>('/api/dashboard/stats'),
    select: (stats) => stats.openShifts,
  });
}

/** docs/product.md §4: optimistic, rolled back with the §8 toast when the server refuses. */
export function useClaimShift() {
  const me = useSignedInUser();
  return useMutation({
    mutationFn: (shiftId: string) => api.post(`/api/shifts/${shiftId}/claim`),
    onMutate: async (shiftId) => {
      await queryClient.cancelQueries({ queryKey: ['shifts'] });
      const before: [QueryKey, unknown][] = queryClient.getQueriesData({ queryKey: ['shifts'] });
      updateShiftInLists(shiftId, (shift) => claimedShift(shift, me));
      return { before };
    },
    onError: (error, _shiftId, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
      toast(claimFailureToast(error));
    },
    onSuccess: () => toast({ title: 'Shift claimed successfully', variant: 'success' }),
    onSettled: () => refresh(['shifts', 'pending', 'my-shifts', 'stats', 'users']),
  });
}

export function useCreateShift() {
  return useMutation({
    mutationFn: (details: ShiftDetails) =>
      api.post<WrittenShiftView>('/api/shifts', { ...details, needsApproval: false, approved: false }),
    onSuccess: async (_shift, details) => {
      toast({
        title: 'Shift created successfully',
        description: `${details.location} ${details.type} Shift is now posted.`,
        variant: 'success',
      });
      await refresh(['shifts', 'stats']);
    },
    onError: (error) => errorToast(error, 'Failed to create shift'),
  });
}

export function useUpdateShift(shift: Shift) {
  return useMutation({
    mutationFn: (details: ShiftDetails) =>
      api.put<WrittenShiftView>(`/api/shifts/${shift.id}`, {
        ...details,
        assignedUserId: shift.assignedUserId,
      }),
    onSuccess: async () => {
      toast({ title: 'Shift updated successfully', variant: 'success' });
      await refresh(shiftViews);
    },
    onError: (error) => errorToast(error, 'Failed to update shift'),
  });
}

export function useDeleteShift() {
  return useMutation({
    mutationFn: (shiftId: string) => api.delete(`/api/shifts/${shiftId}`),
    onSuccess: async () => {
      toast({ title: 'Shift deleted successfully', variant: 'success' });
      await refresh(shiftViews);
    },
    onError: (error) => errorToast(error, 'Failed to delete shift'),
  });
}

/** An assignment; `override` assigns against the working-time rules, its reason recorded (docs/product.md §2.21). */
export interface Assignment {
  staffId: string;
  override?: { reason: string };
}

/** docs/product.md §8 "Assign shift failure": a conflict says so; anything else falls back to the generic text. */
export function useAssignShift(shiftId: string) {
  return useMutation({
    mutationFn: (assignment: Assignment) => api.post(`/api/shifts/${shiftId}/assign`, assignment),
    onSuccess: async () => {
      toast({
        title: 'Shift Assigned',
        description: 'The staff member now holds this shift.',
        variant: 'success',
      });
      await refresh([...shiftViews, 'users']);
    },
    onError: (error) => {
      const conflict = (error as { errorType?: string; code?: string }).errorType === 'shift_conflict';
      const fallback = conflict ? 'Scheduling conflict detected' : 'Failed to assign shift';
      errorToast(error, fallback, 'Assignment Failed');
    },
  });
}
