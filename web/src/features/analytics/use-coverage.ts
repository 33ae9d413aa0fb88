import type { CoverageView } from '@shiftcover/domain';
import { useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../api/client';
import { keys } from '../../api/keys';
import type { CoverageFilters } from './coverage-figures';

export const coveragePath = (filters: CoverageFilters, format: '' | '.csv' = '') =>
  withQuery(`/api/analytics/coverage${format}`, { ...filters });

export function useCoverage(filters: CoverageFilters, enabled: boolean) {
  return useQuery({
    queryKey: keys.coverage({ ...filters }),
    queryFn: () => api.get<CoverageView>(coveragePath(filters)),
    enabled,
  });
}
