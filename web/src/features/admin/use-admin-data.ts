import { type AdminDashboardStatsView, can, type InProgressShiftView } from '@shiftcover/domain';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import type { Shift } from '../../api/types';
import { usePrincipal } from '../auth/session';

/** GET /api/dashboard/stats as administrators receive it. */
export type DashboardStats = AdminDashboardStatsView;

export type InProgressShift = InProgressShiftView;

export function useDashboardStats() {
  return useQuery({ queryKey: keys.stats, queryFn: () => api.get<DashboardStats>('/api/dashboard/stats') });
}

/** How many shifts Shift Management asks the server for at a time. */
export const SERVER_PAGE_SIZE = 100;

/**
 * Shifts in every status, for Shift Management to filter on the page, a server page at a time:
 * `fetchNextPage` follows the answer's next link (docs/product.md §2.15).
 */
export function useShiftPages() {
  return useInfiniteQuery({
    queryKey: keys.shiftPages({ status: 'all' }),
    queryFn: ({ pageParam }) => api.page<Shift>(pageParam),
    initialPageParam: `/api/shifts?status=all&limit=${SERVER_PAGE_SIZE}`,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useInProgressShifts() {
  const allowed = can(usePrincipal(), 'viewPendingApprovals');
  return useQuery({
    queryKey: keys.inProgress,
    queryFn: () => api.get<InProgressShift[]>('/api/shifts/in-progress'),
    enabled: allowed,
  });
}

/** The current time, renewed every minute. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
