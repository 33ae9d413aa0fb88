import { type AdminDashboardStatsView, can, type InProgressShiftView } from '@shiftcover/domain';
import { useQuery } from '@tanstack/react-query';
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

/** Every shift in every status, for Shift Management to filter on the page. */
export function useAllShifts() {
  return useQuery({
    queryKey: keys.shifts({ status: 'all' }),
    queryFn: () => api.get<Shift[]>('/api/shifts?status=all'),
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
