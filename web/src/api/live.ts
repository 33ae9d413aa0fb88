import { useEffect } from 'react';
import type { View } from './keys';
import { queryClient, refresh } from './query-client';

/** Views a shift's eligibility for a person follows besides the shifts: the rules, their credentials, their time off. */
const eligibilityFollows: readonly View[] = ['config', 'credentials', 'time-off'];

/**
 * Server-sent change notices (/api/live): when someone else changes what a screen shows, the
 * queries for those views are refreshed. The browser reconnects by itself after a drop.
 */
export function useLiveUpdates(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/live', { withCredentials: true });
    source.addEventListener('change', (event) => {
      const { views } = JSON.parse((event as MessageEvent<string>).data) as { views: View[] };
      void refresh(views);
      if (views.some((view) => eligibilityFollows.includes(view)))
        void queryClient.invalidateQueries({ queryKey: ['shifts', 'eligibility'] });
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
