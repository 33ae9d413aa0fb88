import { CalendarDays, CalendarRange, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';
import type { MyShiftsSummary } from './my-shifts-summary';

function SummaryCard({ icon, label, value }: { icon: ReactNode; label: string; value: number }) {
  return (
    <Card className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:gap-4 sm:p-5">
      <div className="hidden rounded-lg bg-teal-50 p-2.5 text-teal-700 sm:block [&_svg]:size-5">{icon}</div>
      <div>
        <p className="text-2xl font-semibold text-slate-900 tabular-nums">{value}</p>
        <p className="text-xs leading-tight text-slate-600 sm:text-sm">{label}</p>
      </div>
    </Card>
  );
}

export function SummaryCards({ summary }: { summary: MyShiftsSummary }) {
  return (
    <div className="grid grid-cols-3 gap-3 sm:gap-4">
      <SummaryCard icon={<CalendarDays />} label="Upcoming Shifts" value={summary.upcoming.length} />
      <SummaryCard icon={<CalendarRange />} label="This Week" value={summary.thisWeek} />
      <SummaryCard icon={<Clock />} label="Total Hours (Week)" value={summary.hoursThisWeek} />
    </div>
  );
}
