import { formatShiftDate } from '@shiftcover/domain';
import { Trash2 } from 'lucide-react';
import type { TimeOff } from '../../api/types';
import { Button } from '../../components/ui/button';

/** 'Mon, Jun 1, 2026' or 'Mon, Jun 1, 2026 – Wed, Jun 3, 2026'. */
export function timeOffLabel({ startDate, endDate }: Pick<TimeOff, 'startDate' | 'endDate'>): string {
  return startDate === endDate
    ? formatShiftDate(startDate)
    : `${formatShiftDate(startDate)} – ${formatShiftDate(endDate)}`;
}

/** Days a person cannot work; `onDelete` lets the person themself take one back. */
export function TimeOffList({
  items,
  label,
  onDelete,
}: {
  items: readonly TimeOff[];
  label: string;
  onDelete?(timeOff: TimeOff): void;
}) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      {items.map((item) => (
        <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
          <div className="grid gap-0.5">
            <span className="font-medium text-slate-900">{timeOffLabel(item)}</span>
            {item.note && <span className="text-sm text-slate-600">{item.note}</span>}
          </div>
          {onDelete && (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700 hover:bg-red-50"
              aria-label={`Delete time off ${timeOffLabel(item)}`}
              onClick={() => onDelete(item)}
            >
              <Trash2 aria-hidden /> Delete
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
