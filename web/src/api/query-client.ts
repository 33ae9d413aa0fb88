import { QueryClient } from '@tanstack/react-query';
import type { View } from './keys';

/** docs/product.md §9: no automatic retry, no refetch on focus or on a timer, data never stale. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: Number.POSITIVE_INFINITY },
    mutations: { retry: false },
  },
});

/** Refresh every query showing one of these views. */
export async function refresh(views: readonly View[]): Promise<void> {
  await Promise.all(views.map((view) => queryClient.invalidateQueries({ queryKey: [view] })));
}
