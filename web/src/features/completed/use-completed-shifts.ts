import { can } from '@shiftcover/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { refresh } from '../../api/query-client';
import { usePrincipal } from '../auth/session';
import { errorToast, toast } from '../toast/toast';
import type { CompletedShift } from './types';

// docs/product.md §7: the completed list is always read fresh, past any cache on the way.
const noCache = { 'cache-control': 'no-cache', pragma: 'no-cache' };

export function useCompletedShifts() {
  const allowed = can(usePrincipal(), 'viewCompletedShifts');
  return useQuery({
    queryKey: keys.completedShifts,
    // Every page: the tab filters and sorts the records on the page (docs/product.md §7).
    queryFn: () => api.everyPage<CompletedShift>('/api/completed-shifts', { headers: noCache }),
    enabled: allowed,
  });
}

export function useClearCompleted(onCleared: () => void) {
  return useMutation({
    mutationFn: () => api.post<{ clearedCount?: number }>('/api/completed-shifts/clear'),
    onSuccess: async (answer) => {
      toast({
        title: 'Records Cleared',
        description: `${answer?.clearedCount ?? 0} completed shift records were cleared.`,
        variant: 'success',
      });
      onCleared();
      await refresh(['completed-shifts', 'audit-logs']);
    },
    onError: (error) => errorToast(error, 'Failed to clear completed shifts'),
  });
}

export function useManualReport() {
  return useMutation({
    mutationFn: () => api.post<{ message?: string }>('/api/completed-shifts/manual-report'),
    onSuccess: async (answer) => {
      toast({
        title: 'Report Sent',
        description: answer?.message ?? 'The completed shifts report was sent to the super admins.',
        variant: 'success',
      });
      await refresh(['completed-shifts', 'audit-logs']);
    },
    onError: (error) => errorToast(error, 'Failed to generate manual report'),
  });
}
