import { formatShiftDate, toTwelveHour } from '@shiftcover/domain';
import { Activity, Calendar, MapPin, User } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { Progress } from '../../components/ui/progress';
import { TypeBadge } from '../../components/ui/shift-badges';
import { isUnderway, progressPercent } from './shift-progress';
import { type InProgressShift, useInProgressShifts, useMinuteClock } from './use-admin-data';

/** The shifts being worked right now; the clock moves their bars on every minute. */
export function useShiftsUnderway() {
  const query = useInProgressShifts();
  const now = useMinuteClock();
  // A shift that ended since the list was read is no longer being worked.
  const shifts = (query.data ?? []).filter((shift) => isUnderway(shift, now));
  return { query, shifts, now };
}

/** Admin Dashboard tab (docs/product.md §2 Shifts in Progress). */
export function InProgressTab() {
  const { query, shifts, now } = useShiftsUnderway();
  return (
    <section aria-labelledby="in-progress-heading" className="grid gap-4">
      <div>
        <h2 id="in-progress-heading" className="text-lg font-semibold text-slate-900">
          Shifts in Progress
        </h2>
        <p className="text-sm text-slate-600">Shifts that are currently active and being worked by staff</p>
        {query.isSuccess && (
          <p className="mt-1 text-sm font-medium text-green-800">{shifts.length} shift(s) currently active</p>
        )}
      </div>
      {query.isLoading ? (
        <Spinner label="Loading shifts in progress" />
      ) : query.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{query.error.message}</Alert>
      ) : shifts.length === 0 ? (
        <EmptyState icon={<Activity />} title="No shifts are currently in progress" />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {shifts.map((shift) => (
            <li key={shift.id} className="grid">
              <InProgressCard shift={shift} percent={progressPercent(shift, now)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function InProgressCard({ shift, percent }: { shift: InProgressShift; percent: number }) {
  return (
    <Card className="flex flex-col gap-3 border-l-4 border-l-green-600 p-4">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="flex items-center gap-1.5 font-semibold text-slate-900">
            <MapPin className="size-4 shrink-0 text-slate-400" aria-hidden />
            <span className="break-words">{shift.location}</span>
          </h3>
          <p className="flex items-center gap-1.5 text-sm text-slate-700">
            <User className="size-4 shrink-0 text-slate-400" aria-hidden />
            {shift.staffName}
          </p>
        </div>
        <Badge className="border-transparent bg-green-100 text-green-900">In Progress</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Start</dt>
          <dd className="font-medium text-slate-900">{toTwelveHour(shift.startTime)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">End</dt>
          <dd className="font-medium text-slate-900">{toTwelveHour(shift.endTime)}</dd>
        </div>
      </dl>
      <div className="grid gap-1">
        <Progress value={percent} label={`${shift.location} progress`} />
        <p className="text-xs text-slate-600">{percent}% complete</p>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <TypeBadge type={shift.type} />
        <span className="flex items-center gap-1.5">
          <Calendar className="size-4 text-slate-400" aria-hidden />
          {formatShiftDate(shift.date)}
        </span>
      </div>
    </Card>
  );
}
