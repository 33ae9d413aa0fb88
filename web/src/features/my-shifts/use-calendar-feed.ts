import type { CalendarFeedStatusView, CalendarFeedView } from '@shiftcover/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { queryClient } from '../../api/query-client';
import { toast } from '../toast/toast';

/** GET /api/calendar-feed: whether the user has a calendar feed (its address is never read back). */
export function useCalendarFeedStatus(enabled: boolean) {
  return useQuery({
    queryKey: keys.calendarFeed,
    queryFn: () => api.get<CalendarFeedStatusView>('/api/calendar-feed'),
    enabled,
  });
}

const failed = (title: string) => (error: Error) =>
  toast({ title, description: error.message, variant: 'destructive' });

/** POST /api/calendar-feed: a new private address, replacing any older one. */
export function useCreateCalendarFeed() {
  return useMutation({
    mutationFn: () => api.post<CalendarFeedView>('/api/calendar-feed'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.calendarFeed }),
    onError: failed('Could not create the calendar address'),
  });
}

/** DELETE /api/calendar-feed: the address stops working at once. */
export function useRevokeCalendarFeed() {
  return useMutation({
    mutationFn: () => api.delete<{ message: string }>('/api/calendar-feed'),
    onSuccess: async (answer) => {
      toast({ title: 'Calendar Feed Revoked', description: answer?.message, variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: keys.calendarFeed });
    },
    onError: failed('Could not revoke the calendar feed'),
  });
}
