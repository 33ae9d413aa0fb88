import { durationLabel, formatShiftDate, shiftHours, timeRangeLabel } from '@shiftcover/domain';
import { BadgeCheck, Calendar, ClipboardList, Clock, MapPin, StickyNote } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Shift } from '../../api/types';

type Facts = Pick<Shift, 'location' | 'date' | 'startTime' | 'endTime'> &
  Partial<Pick<Shift, 'requirements' | 'notes' | 'requiredCredentials'>>;

/** One line of a fact list: an icon standing for `label` (read out, not shown), then the value. */
export function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-start gap-2">
      <dt className="mt-0.5 shrink-0 text-slate-400 [&_svg]:size-4">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** Where and when a shift is, with its requirements and notes: the body of every shift card. */
export function ShiftFacts({ shift }: { shift: Facts }) {
  const hours = shiftHours(shift.date, shift.startTime, shift.endTime);
  return (
    <dl className="grid gap-1.5 text-sm text-slate-700">
      <Fact icon={<MapPin />} label="Location">
        {shift.location}
      </Fact>
      <Fact icon={<Calendar />} label="Date">
        {formatShiftDate(shift.date)}
      </Fact>
      <Fact icon={<Clock />} label="Time">
        {timeRangeLabel(shift.startTime, shift.endTime)}{' '}
        <span className="text-slate-500">({durationLabel(hours)})</span>
      </Fact>
      {shift.requiredCredentials && shift.requiredCredentials.length > 0 && (
        <Fact icon={<BadgeCheck />} label="Required credentials">
          Requires {shift.requiredCredentials.join(', ')}
        </Fact>
      )}
      {shift.requirements && (
        <Fact icon={<ClipboardList />} label="Requirements">
          {shift.requirements}
        </Fact>
      )}
      {shift.notes && (
        <Fact icon={<StickyNote />} label="Notes">
          <span className="line-clamp-2">{shift.notes}</span>
        </Fact>
      )}
    </dl>
  );
}
