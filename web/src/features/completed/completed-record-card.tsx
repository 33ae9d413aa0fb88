import { easternDateTime, formatShiftDate, timeRangeLabel } from '@shiftcover/domain';
import { Calendar, CheckCircle2, ClipboardList, Clock, Hash, StickyNote, Timer, User } from 'lucide-react';
import { Card } from '../../components/ui/card';
import { TypeBadge } from '../../components/ui/shift-badges';
import { Fact } from '../../components/ui/shift-facts';
import { dateSpan, workedLabel } from './completed-records';
import type { CompletedShift } from './types';

function dateLabel(record: CompletedShift): string {
  const { from, to } = dateSpan(record);
  return to ? `${formatShiftDate(from)} – ${formatShiftDate(to)}` : formatShiftDate(from);
}

/** One completed shift; the original shift id only when `showShiftId` (docs/product.md §6). */
export function CompletedRecordCard({
  record,
  showShiftId,
}: {
  record: CompletedShift;
  showShiftId: boolean;
}) {
  return (
    <Card className="grid gap-3 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-2">
          <TypeBadge type={record.type} />
          <h3 className="font-semibold break-words text-slate-900">{record.location}</h3>
        </div>
        <p className="flex items-center gap-1.5 text-xs text-slate-600">
          <CheckCircle2 className="size-4 text-green-700" aria-hidden />
          Completed {easternDateTime(record.shiftCompletedAt)}
        </p>
      </div>
      <dl className="grid gap-1.5 text-sm text-slate-700 sm:grid-cols-2">
        <Fact icon={<Calendar />} label="Date">
          {dateLabel(record)}
        </Fact>
        <Fact icon={<Clock />} label="Time">
          {timeRangeLabel(record.startTime, record.endTime)}
        </Fact>
        <Fact icon={<User />} label="Staff">
          {record.assignedUserName ?? 'Unassigned'}
        </Fact>
        <Fact icon={<Timer />} label="Duration">
          {workedLabel(record.hoursWorked)}
        </Fact>
        {record.requirements && (
          <Fact icon={<ClipboardList />} label="Requirements">
            {record.requirements}
          </Fact>
        )}
        {record.notes && (
          <Fact icon={<StickyNote />} label="Notes">
            {record.notes}
          </Fact>
        )}
        {showShiftId && record.originalShiftId && (
          <Fact icon={<Hash />} label="Original shift id">
            <span className="font-mono text-xs text-slate-500">Shift ID: {record.originalShiftId}</span>
          </Fact>
        )}
      </dl>
    </Card>
  );
}
