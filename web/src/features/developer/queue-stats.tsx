import { easternTimestamp } from '@shiftcover/domain';
import type { QueueStatus } from './use-developer-tools';

/** The e-mail queue's counts, each labelled in words. */
export function QueueStats({ status }: { status: QueueStatus }) {
  const stats: [string, string | number][] = [
    ['Total', status.total],
    ['Ready', status.ready],
    ['Pending', status.pending],
    ['Processing', status.processing ? 'Yes' : 'No'],
  ];
  return (
    <div className="grid gap-3">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {stats.map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 p-3">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <dl className="text-sm">
        <dt className="inline text-slate-500">Oldest waiting: </dt>
        <dd className="inline text-slate-800">
          {status.oldestWaiting ? easternTimestamp(status.oldestWaiting) : 'Nothing waiting'}
        </dd>
      </dl>
    </div>
  );
}
