import { WifiOff } from 'lucide-react';
import { useCachedAt, useOnline } from '../../api/offline';
import { offlineNotice } from './offline-notice';
import { MY_SHIFTS_PATH, useMyShifts } from './use-my-shifts';

/**
 * The notice over My Shifts when its shifts are the last ones known rather than fresh: kept by the
 * service worker, or on screen since before the connection went. The status region is always
 * there, so a screen reader hears the notice when it appears.
 */
export function OfflineBanner() {
  const online = useOnline();
  const cachedAt = useCachedAt(MY_SHIFTS_PATH);
  const { data, dataUpdatedAt } = useMyShifts();
  const stale = data !== undefined && (!online || cachedAt !== null);
  return (
    <div role="status">
      {stale && (
        <p className="mt-4 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          <WifiOff className="mt-0.5 size-4 shrink-0" aria-hidden />
          {offlineNotice({ online, asOf: cachedAt ?? new Date(dataUpdatedAt), now: new Date() })}
        </p>
      )}
    </div>
  );
}
