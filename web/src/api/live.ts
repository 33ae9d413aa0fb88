import { useEffect } from 'react';
import type { View } from './keys';
import { refresh } from './query-client';

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
    });
    // After a reconnect, anything may have changed while the connection was down.
    let opened = false;
    source.addEventListener('open', () => {
      if (opened)
        void refresh(['shifts', 'pending', 'drop-requests', 'transfer-requests', 'my-shifts', 'stats']);
      opened = true;
    });
    return () => source.close();
  }, [enabled]);
}
