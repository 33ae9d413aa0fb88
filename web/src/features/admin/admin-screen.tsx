import { lazyRouteComponent } from '@tanstack/react-router';
import { type ComponentType, type ReactNode, Suspense } from 'react';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/feedback';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { MAIN_ID } from '../../lib/focus';
import { PendingApprovalsPanel } from '../approvals/pending-approvals-panel';
import { useDropRequestsCount, usePendingApprovalsCount } from '../approvals/use-approvals';
import { usePrincipal } from '../auth/session';
import { type AdminTab, DEFAULT_ADMIN_TAB, visibleAdminTabs } from './admin-tabs';
import { DashboardCards } from './dashboard-cards';
import { InProgressTab, useShiftsUnderway } from './in-progress-tab';

// The first tab comes with the screen; each other tab is fetched when it is first opened.
const panels: Record<AdminTab, ComponentType> = {
  'pending-approvals': PendingApprovalsPanel,
  'shift-management': lazyRouteComponent(() => import('./shift-management-tab'), 'ShiftManagementTab'),
  'drop-requests': lazyRouteComponent(() => import('../approvals/drop-requests-panel'), 'DropRequestsPanel'),
  'in-progress': InProgressTab,
  'user-management': lazyRouteComponent(() => import('../users/user-management-tab'), 'UserManagementTab'),
  'staff-rules': lazyRouteComponent(() => import('../rules/staff-rules-tab'), 'StaffRulesTab'),
  residences: lazyRouteComponent(() => import('../residences/residences-tab'), 'ResidencesTab'),
  'completed-shifts': lazyRouteComponent(
    () => import('../completed/completed-shifts-tab'),
    'CompletedShiftsTab',
  ),
  'audit-logs': lazyRouteComponent(() => import('../audit/audit-logs-tab'), 'AuditLogsTab'),
  // Its charting library comes with it, on first opening only.
  analytics: lazyRouteComponent(() => import('../analytics/analytics-tab'), 'AnalyticsTab'),
  'developer-tools': lazyRouteComponent(
    () => import('../developer/developer-tools-tab'),
    'DeveloperToolsTab',
  ),
};

function CountBadge({
  count,
  tone,
  noun,
}: {
  count: number | undefined;
  tone: 'red' | 'green';
  noun: string;
}) {
  if (!count) return null;
  return (
    <Badge
      variant={tone === 'red' ? 'destructive' : 'default'}
      className={tone === 'green' ? 'bg-green-600' : undefined}
    >
      {count}
      <span className="sr-only"> {noun}</span>
    </Badge>
  );
}

/** docs/product.md §2 Admin Dashboard: the summary cards and the Management Tools tabs. */
export function AdminScreen() {
  const tabs = visibleAdminTabs(usePrincipal());
  const pendingCount = usePendingApprovalsCount();
  const dropCount = useDropRequestsCount();
  const activeCount = useShiftsUnderway().shifts.length;
  const counts: Partial<Record<AdminTab, ReactNode>> = {
    'pending-approvals': <CountBadge count={pendingCount} tone="red" noun="pending" />,
    'drop-requests': <CountBadge count={dropCount} tone="red" noun="pending" />,
    'in-progress': <CountBadge count={activeCount} tone="green" noun="active" />,
  };

  return (
    <main id={MAIN_ID} tabIndex={-1} className="mx-auto grid max-w-7xl gap-6 px-4 py-6 outline-none">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Admin Dashboard</h1>
        <p className="text-sm text-slate-600">Manage shifts, staff, and operations</p>
      </div>
      <DashboardCards />
      <section aria-labelledby="management-tools-heading" className="grid gap-3">
        <h2 id="management-tools-heading" className="text-lg font-semibold text-slate-900">
          Management Tools
        </h2>
        <Tabs defaultValue={DEFAULT_ADMIN_TAB}>
          <TabsList aria-label="Management Tools">
            {tabs.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value}>
                {tab.label}
                {counts[tab.value]}
              </TabsTrigger>
            ))}
          </TabsList>
          {tabs.map(({ value, label }) => {
            const Panel = panels[value];
            return (
              <TabsContent key={value} value={value}>
                <Suspense fallback={<Spinner label={`Loading ${label}`} />}>
                  <Panel />
                </Suspense>
              </TabsContent>
            );
          })}
        </Tabs>
      </section>
    </main>
  );
}
