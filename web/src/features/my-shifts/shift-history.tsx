import { formatShiftDate, timeRangeLabel } from '@shiftcover/domain';
import { History } from 'lucide-react';
import type { Shift } from '../../api/types';
import { EmptyState } from '../../components/ui/feedback';
import { StatusBadge } from '../../components/ui/shift-badges';

/** docs/product.md §2 "Shift History": the most recent shifts the user worked. */
export function ShiftHistory({ shifts }: { shifts: Shift[] }) {
  if (shifts.length === 0) {
    return (
      <EmptyState icon={<History />} title="No past shifts yet">
        Shifts you have worked appear here.
      </EmptyState>
    );
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
      {shifts.map((shift) => (
        <li key={shift.id} className="flex items-start justify-between gap-3 p-3">
          <div className="min-w-0 text-sm">
            <p className="font-medium text-slate-900">
              {shift.location} {shift.type} Shift
            </p>
            <p className="text-slate-600">{formatShiftDate(shift.date)}</p>
            <p className="text-slate-500">{timeRangeLabel(shift.startTime, shift.endTime)}</p>
          </div>
          <StatusBadge status="completed" />
        </li>
      ))}
    </ul>
  );
}
