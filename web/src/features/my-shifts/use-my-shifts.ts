import type { MyShiftsView } from '@shiftcover/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys, shiftViews } from '../../api/keys';
import { refresh } from '../../api/query-client';
import { toast } from '../toast/toast';
import { dropFailureToast } from './drop-failure';

export const MY_SHIFTS_PATH = '/api/my-shifts';

/** GET /api/my-shifts: the user's upcoming shifts and their most recent past ones. */
export function useMyShifts() {
  return useQuery({
    queryKey: keys.myShifts,
    queryFn: () => api.get<MyShiftsView>(MY_SHIFTS_PATH),
  });
}

export function useRequestDrop() {
  return useMutation({
    mutationFn: (shiftId: string) => api.post<{ message?: string }>(`/api/shifts/${shiftId}/request-drop`),
    onSuccess: async (answer) => {
      toast({ title: 'Drop Requested', description: answer?.message, variant: 'success' });
      await refresh(shiftViews);
    },
    onError: (error) => toast(dropFailureToast(error)),
  });
}
