import { can } from '@shiftcover/domain';
import { ClipboardCheck, Filter, Info, Send, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { usePrincipal } from '../auth/session';
import { CompletedFilterBar } from './completed-filter-bar';
import { CompletedRecordCard } from './completed-record-card';
import { type CompletedFilters, defaultCompletedFilters, filterCompleted } from './completed-records';
import { useClearCompleted, useCompletedShifts, useManualReport } from './use-completed-shifts';

function CountCard({ icon, label, value }: { icon: ReactNode; label: string; value: number }) {
  return (
    <Card className="flex items-center gap-3 p-4">
      <div className="rounded-lg bg-teal-50 p-2.5 text-teal-700 [&_svg]:size-5">{icon}</div>
      <div>
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="text-2xl font-semibold text-slate-900 tabular-nums">{value}</p>
      </div>
    </Card>
  );
}

/** Admin Dashboard tab: the record of worked shifts until the monthly report (docs/product.md §2, §9). */
export function CompletedShiftsTab() {
  const principal = usePrincipal();
  const records = useCompletedShifts();
  const [filters, setFilters] = useState<CompletedFilters>(defaultCompletedFilters);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const clear = useClearCompleted(() => setConfirmingClear(false));
  const report = useManualReport();

  const all = records.data ?? [];
  const shown = filterCompleted(all, filters, new Date());

  return (
    <section aria-labelledby="completed-heading" className="grid gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="completed-heading" className="text-lg font-semibold text-slate-900">
            Completed Shifts
          </h2>
          <p className="text-sm text-slate-600">Shifts worked since the last monthly report</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={report.isPending} onClick={() => report.mutate()}>
            <Send aria-hidden />
            {report.isPending ? 'Generating Report...' : 'Send Manual Report'}
          </Button>
          {can(principal, 'clearCompletedRecords') && (
            <Button variant="destructive" onClick={() => setConfirmingClear(true)}>
              <Trash2 aria-hidden />
              Clear All Records
            </Button>
          )}
        </div>
      </div>

      <div className="grid grid-cols-2 gap-3">
        <CountCard icon={<ClipboardCheck />} label="Total Completed" value={all.length} />
        <CountCard icon={<Filter />} label="Filtered Results" value={shown.length} />
      </div>

      <CompletedFilterBar filters={filters} onChange={setFilters} />

      {records.isLoading ? (
        <Spinner label="Loading completed shifts" />
      ) : records.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{records.error.message}</Alert>
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<ClipboardCheck />}
          title={all.length === 0 ? 'No Completed Shifts' : 'No Matching Shifts'}
        >
          {all.length === 0
            ? 'Shifts appear here one hour after they end.'
            : 'No completed shifts match these filters.'}
        </EmptyState>
      ) : (
        // Focusable, so every browser lets the keyboard scroll it (WCAG 2.1.1).
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard
          tabIndex={0}
          aria-label="Completed shift records"
          className="max-h-96 overflow-y-auto rounded-xl border border-slate-200 bg-slate-100/60 p-2 focus-visible:outline-2 focus-visible:outline-teal-600"
        >
          <ul className="grid gap-3">
            {shown.map((record) => (
              <li key={record.id}>
                <CompletedRecordCard record={record} showShiftId={can(principal, 'seeOriginalShiftId')} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <Alert role="note" className="border-blue-200 bg-blue-50 text-blue-900">
        <Info className="size-5 shrink-0" aria-hidden />
        <div className="grid gap-1">
          <p className="font-medium">How completed shifts work</p>
          <ul className="list-disc pl-4">
            <li>Shifts are marked completed automatically 1 hour after their end time.</li>
            <li>On the 1st of each month a report of the completed shifts is sent to the super admins.</li>
            <li>
              Once included in a monthly report, completed shifts are archived and removed from this list.
            </li>
          </ul>
        </div>
      </Alert>

      <ConfirmDialog
        open={confirmingClear}
        onOpenChange={setConfirmingClear}
        title="Clear All Records"
        description="Are you sure you want to clear all completed shift records? This cannot be undone."
        confirmLabel={clear.isPending ? 'Clearing...' : 'Clear All Records'}
        busy={clear.isPending}
        onConfirm={() => clear.mutate()}
      />
    </section>
  );
}
