import type { ReactNode } from 'react';
import { Badge } from '../../components/ui/badge';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { MAIN_ID } from '../../lib/focus';
import { DropRequestsPanel } from '../approvals/drop-requests-panel';
import { PendingApprovalsPanel } from '../approvals/pending-approvals-panel';
import { useDropRequestsCount, usePendingApprovalsCount } from '../approvals/use-approvals';
import { AuditLogsTab } from '../audit/audit-logs-tab';
import { usePrincipal } from '../auth/session';
import { CompletedShiftsTab } from '../completed/completed-shifts-tab';
import { DeveloperToolsTab } from '../developer/developer-tools-tab';
import { ResidencesTab } from '../residences/residences-tab';
import { UserManagementTab } from '../users/user-management-tab';
import { type AdminTab, DEFAULT_ADMIN_TAB, visibleAdminTabs } from './admin-tabs';
import { DashboardCards } from './dashboard-cards';
import { InProgressTab, useShiftsUnderway } from './in-progress-tab';
import { ShiftManagementTab } from './shift-management-tab';

const panels: Record<AdminTab, () => ReactNode> = {
  'pending-approvals': () => <PendingApprovalsPanel />,
  'shift-management': () => <ShiftManagementTab />,
  'drop-requests': () => <DropRequestsPanel />,
  'in-progress': () => <InProgressTab />,
  'user-management': () => <UserManagementTab />,
  residences: () => <ResidencesTab />,
  'completed-shifts': () => <CompletedShiftsTab />,
  'audit-logs': () => <AuditLogsTab />,
  'developer-tools': () => <DeveloperToolsTab />,
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
          {tabs.map((tab) => (
            <TabsContent key={tab.value} value={tab.value}>
              {panels[tab.value]()}
            </TabsContent>
          ))}
        </Tabs>
      </section>
    </main>
  );
}
