import { can } from '@shiftcover/domain';
import { FileText, Send } from 'lucide-react';
import { useState } from 'react';
import { useLoadMore } from '../../api/load-more';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState, Spinner } from '../../components/ui/feedback';
import { usePrincipal } from '../auth/session';
import { useAllUsers } from '../users/use-users';
import { AuditEntry } from './audit-entry';
import { AuditFilterBar } from './audit-filter-bar';
import { defaultAuditFilters } from './audit-filters';
import { ResendEmailDialog } from './resend-email-dialog';
import { useAuditLogs, useSendAuditReport } from './use-audit-logs';

/** Admin Dashboard tab: the last seven days of the audit log (docs/product.md §2 Audit Logs). */
export function AuditLogsTab() {
  const viewer = usePrincipal();
  const [filters, setFilters] = useState(defaultAuditFilters);
  const [resendShiftId, setResendShiftId] = useState<string | null>(null);
  const logs = useAuditLogs(filters);
  const users = useAllUsers();
  const sendReport = useSendAuditReport();
  const pages = logs.data?.pages ?? [];
  const entries = pages.flatMap((page) => page.logs);
  const total = pages[0]?.totalCount ?? 0;
  const more = useLoadMore(logs, pages.length, filters);
  const canResend = can(viewer, 'resendEmail');

  return (
    <Card>
      <CardHeader className="gap-3 px-3 sm:flex-row sm:items-start sm:justify-between sm:px-5">
        <div className="grid gap-1">
          <CardTitle className="text-lg">Audit Logs</CardTitle>
          <CardDescription aria-live="polite">
            Last 7 days{logs.data ? ` · ${total} ${total === 1 ? 'entry' : 'entries'}` : ''}
          </CardDescription>
        </div>
        {can(viewer, 'sendReport') && (
          <Button variant="outline" disabled={sendReport.isPending} onClick={() => sendReport.mutate()}>
            <Send aria-hidden />
            {sendReport.isPending ? 'Sending...' : 'Send Report'}
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-4 px-3 sm:px-5">
        <AuditFilterBar filters={filters} users={users.data ?? []} onChange={setFilters} />
        {logs.isLoading ? (
          <Spinner label="Loading audit logs" />
        ) : entries.length === 0 ? (
          <EmptyState icon={<FileText />} title="No audit logs found">
            Nothing was recorded that matches these filters.
          </EmptyState>
        ) : (
          <>
            {/* A page holds up to 100 entries: they scroll in their own area under the filters. */}
            <ul
              aria-label="Audit entries"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area must be reachable by keyboard
              tabIndex={0}
              className="max-h-[70vh] divide-y divide-slate-200 overflow-y-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-teal-600"
            >
              {entries.map((entry) => (
                <AuditEntry
                  key={entry.id}
                  entry={entry}
                  onResend={
                    canResend && entry.action === 'shift_created'
                      ? () => setResendShiftId(entry.entityId)
                      : undefined
                  }
                />
              ))}
            </ul>
            <div className="flex flex-col items-center gap-3">
              <p className="text-sm text-slate-600">
                Showing {entries.length} of {total} entries{logs.hasNextPage ? ' (more available)' : ''}
              </p>
              {logs.hasNextPage && (
                <Button variant="outline" disabled={more.loading} onClick={() => more.loadMore(1)}>
                  {more.loading ? 'Loading...' : 'Load Next 100 Entries'}
                </Button>
              )}
            </div>
          </>
        )}
      </CardContent>
      {resendShiftId && <ResendEmailDialog shiftId={resendShiftId} onClose={() => setResendShiftId(null)} />}
    </Card>
  );
}
