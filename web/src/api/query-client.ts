import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Page } from './client';
import type { View } from './keys';
import type { Shift } from './types';

/**
 * docs/product.md §9: no automatic retry, no refetch on focus or on a timer, data never stale.
 * Without a connection a read is still sent, so the service worker can answer it from its cache,
 * and a write is sent and fails at once with the offline message rather than waiting, unseen,
 * to be sent later.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      networkMode: 'offlineFirst',
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});

/** Refresh every query showing one of these views. */
export async function refresh(views: readonly View[]): Promise<void> {
  await Promise.all(views.map((view) => queryClient.invalidateQueries({ queryKey: [view] })));
}

/**
 * Changes one shift in every shift list held, whether a list is one array or pages of a paged
 * list, for a mutation's optimistic answer.
 */
export function updateShiftInLists(shiftId: string, change: (shift: Shift) => Shift): void {
  const update = (shift: Shift) => (shift.id === shiftId ? change(shift) : shift);
  queryClient.setQueriesData<Shift[] | InfiniteData<Page<Shift>>>({ queryKey: ['shifts'] }, (held) => {
    if (Array.isArray(held)) return held.map(update);
    if (held && 'pages' in held) {
      return { ...held, pages: held.pages.map((page) => ({ ...page, items: page.items.map(update) })) };
    }
    return held;
  });
}
