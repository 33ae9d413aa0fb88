import type { ChangeNotice } from '@shiftcover/domain';
import type { Query, QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { View } from './keys';
import { queryClient } from './query-client';

/**
 * Views whose change can change a person's eligibility for any shift: their schedule (`my-shifts`),
 * the rules, their credentials and their time off. Otherwise only a shift's own change can change
 * its eligibility (`keys.eligibility`).
 */
const everyEligibilityFollows: readonly View[] = ['my-shifts', 'config', 'credentials', 'time-off'];

const isEligibility = (query: Query) => query.queryKey[0] === 'shifts' && query.queryKey[1] === 'eligibility';

/**
 * Asks again for what a change notice touches: the queries of the views it names, and of the
 * eligibility queries those the changes can have moved. A screen that has scrolled past a hundred
 * shifts does not ask a hundred times whenever any shift changes.
 */
export async function applyNotice(client: QueryClient, { views, shifts }: ChangeNotice): Promise<void> {
  const every = views.some((view) => everyEligibilityFollows.includes(view));
  const named = new Set(shifts);
  await Promise.all([
    ...views.map((view) =>
      client.invalidateQueries({ queryKey: [view], predicate: (query) => !isEligibility(query) }),
    ),
    client.invalidateQueries({
      queryKey: ['shifts', 'eligibility'],
      predicate: (query) => every || named.has(query.queryKey[2] as string),
    }),
  ]);
}

/**
 * Server-sent change notices (/api/live): when someone else changes what a screen shows, the
 * queries for those views are refreshed. The browser reconnects by itself after a drop.
 */
export function useLiveUpdates(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/live', { withCredentials: true });
    source.addEventListener('change', (event) => {
      void applyNotice(queryClient, JSON.parse((event as MessageEvent<string>).data) as ChangeNotice);
    });
    // After a reconnect, anything may have changed while the connection was down.
    let opened = false;
    source.addEventListener('open', () => {
      if (opened) void queryClient.invalidateQueries();
      opened = true;
    });
    return () => source.close();
  }, [enabled]);
}
