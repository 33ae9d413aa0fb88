import { AlertTriangle, CalendarDays, CheckCircle2, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';
import { usePendingApprovalsCount } from '../approvals/use-approvals';
import { useDashboardStats } from './use-admin-data';

function StatCard({
  icon,
  label,
  value,
  detail,
  tone,
}: {
  icon: ReactNode;
  label: string;
  value: number | string;
  detail: ReactNode;
  tone: string;
}) {
  return (
    <Card className="flex items-start gap-3 p-3 sm:p-5">
      <div className={`hidden shrink-0 rounded-lg p-2.5 sm:block [&_svg]:size-5 ${tone}`}>{icon}</div>
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="text-2xl font-semibold text-slate-900 tabular-nums">{value}</p>
        <p className="text-xs text-slate-500">{detail}</p>
      </div>
    </Card>
  );
}

/** docs/product.md §2: Open, Covered, Pending Approvals and Total Shifts at a glance. */
export function DashboardCards() {
  const { data: stats } = useDashboardStats();
  // The same count as the Pending Approvals tab, which a plain admin sees for their own residence.
  const pending = usePendingApprovalsCount() ?? stats?.pendingApprovals;
  const show = (value: number | undefined) => value ?? '–';
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        icon={<AlertTriangle />}
        tone="bg-red-50 text-red-700"
        label="Open Shifts"
        value={show(stats?.openShifts)}
        detail={`${show(stats?.emergencyShifts)} emergency, ${show(stats?.urgentShifts)} urgent`}
      />
      <StatCard
        icon={<CheckCircle2 />}
        tone="bg-green-50 text-green-700"
        label="Covered Shifts"
        value={show(stats?.coveredShifts)}
        detail={`${show(stats?.coveragePercent)}% coverage`}
      />
      <StatCard
        icon={<Clock />}
        tone="bg-yellow-50 text-yellow-800"
        label="Pending Approvals"
        value={show(pending)}
        detail="Claims awaiting approval"
      />
      <StatCard
        icon={<CalendarDays />}
        tone="bg-teal-50 text-teal-700"
        label="Total Shifts"
        value={show(stats?.totalShiftsThisMonth)}
        detail="This month"
      />
    </div>
  );
}
