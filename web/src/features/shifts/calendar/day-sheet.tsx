import { formatShiftDate, isClaimable, timeRangeLabel } from '@shiftcover/domain';
import { CheckCircle2 } from 'lucide-react';
import type { Shift } from '../../../api/types';
import { Sheet } from '../../../components/ui/sheet';
import { StatusBadge, TypeBadge } from '../../../components/ui/shift-badges';
import { usePrincipal } from '../../auth/session';
import { ClaimControl } from '../../rules/claim-control';

/** The side panel of a calendar day: its shifts, each claimable or marked as the user's. */
export function DaySheet({
  date,
  shifts,
  onOpenChange,
}: {
  date: string | null;
  shifts: Shift[];
  onOpenChange(open: boolean): void;
}) {
  const { userId } = usePrincipal();
  return (
    <Sheet
      open={date !== null}
      onOpenChange={onOpenChange}
      side="right"
      title={date ? formatShiftDate(date) : ''}
    >
      {shifts.length === 0 ? (
        <p className="text-sm text-slate-600">No shifts on this day.</p>
      ) : (
        <ul className="grid gap-3">
          {shifts.map((shift) => (
            <li key={shift.id} className="grid gap-2 rounded-lg border border-slate-200 p-3">
              <div className="flex flex-wrap gap-1.5">
                <TypeBadge type={shift.type} />
                <StatusBadge status={shift.status} />
              </div>
              <p className="font-medium text-slate-900">{shift.location}</p>
              <p className="text-sm text-slate-700">{timeRangeLabel(shift.startTime, shift.endTime)}</p>
              {shift.requirements && (
                <p className="text-sm text-slate-600">Requirements: {shift.requirements}</p>
              )}
              {shift.assignedUserId === userId ? (
                <p className="flex items-center gap-1.5 text-sm font-medium text-blue-800">
                  <CheckCircle2 className="size-4" aria-hidden /> Claimed by you
                </p>
              ) : (
                isClaimable(shift) && <ClaimControl shift={shift} className="justify-self-start" />
              )}
            </li>
          ))}
        </ul>
      )}
    </Sheet>
  );
}
