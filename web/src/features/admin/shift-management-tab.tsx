import { easternToday } from '@shiftcover/domain';
import { CalendarX, Plus } from 'lucide-react';
import { useState } from 'react';
import { useLoadMore } from '../../api/load-more';
import { Button } from '../../components/ui/button';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { CreateShiftDialog } from '../shifts/create-shift-dialog';
import { ShiftCard } from '../shifts/shift-card';
import { ShiftFilterBar } from './shift-filter-bar';
import {
  filterShifts,
  hasActiveFilter,
  managedShifts,
  noShiftFilters,
  PAGE_SIZE,
  pagingControl,
  type ShiftFilters,
} from './shift-filters';
import { useShiftPages } from './use-admin-data';

/**
 * Admin Dashboard tab: the shifts loaded so far, filtered on the page, ten at a time; Load More
 * brings the next server page when the loaded ones are all shown (docs/product.md §2.15).
 */
export function ShiftManagementTab() {
  const shifts = useShiftPages();
  const [filters, setFilters] = useState<ShiftFilters>(noShiftFilters);
  const [visible, setVisible] = useState(PAGE_SIZE);
  const [creating, setCreating] = useState(false);

  const all = managedShifts(shifts.data?.pages.flatMap((page) => page.items) ?? []);
  const matching = filterShifts(all, filters, easternToday(new Date()));
  const filtered = hasActiveFilter(filters);
  const shown = matching.slice(0, visible);
  const paging = pagingControl(matching.length, visible, shifts.hasNextPage);

  const more = useLoadMore(shifts, shifts.data?.pages.length ?? 0);

  // Ten more from what is loaded, drawn as the next server page comes in when it is needed.
  function showMore() {
    if (paging?.kind === 'server') more.loadMore(1);
    setVisible(shown.length + PAGE_SIZE);
  }

  function changeFilters(next: ShiftFilters) {
    setFilters(next);
    setVisible(PAGE_SIZE);
  }

  return (
    <section aria-labelledby="shift-management-heading" className="grid gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="shift-management-heading" className="text-lg font-semibold text-slate-900">
            Shift Management
          </h2>
          <p className="text-sm text-slate-600" aria-live="polite">
            Showing {shown.length} of {matching.length} shifts
            {filtered && <span className="text-slate-500"> (filtered from {all.length} total)</span>}
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden />
          Create Shift
        </Button>
      </div>

      <ShiftFilterBar filters={filters} onChange={changeFilters} />

      {shifts.isLoading ? (
        <Spinner label="Loading shifts" />
      ) : shifts.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{shifts.error.message}</Alert>
      ) : matching.length === 0 ? (
        <EmptyState
          icon={<CalendarX />}
          title={filtered ? 'No shifts match your filters' : 'No shifts available'}
        >
          {filtered ? 'Try other filters or clear them.' : 'Create a shift to get started.'}
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {shown.map((shift) => (
            <li key={shift.id} className="grid">
              <ShiftCard shift={shift} explainClaim={false} />
            </li>
          ))}
        </ul>
      )}

      {paging && (
        <div className="flex justify-center">
          {paging.kind === 'more' ? (
            <Button variant="outline" onClick={showMore}>
              Load More Shifts ({paging.remaining} remaining)
            </Button>
          ) : paging.kind === 'server' ? (
            <Button variant="outline" onClick={showMore} aria-busy={more.loading}>
              {more.loading ? 'Loading more shifts...' : 'Load More Shifts'}
            </Button>
          ) : (
            <Button variant="outline" onClick={() => setVisible(PAGE_SIZE)}>
              Show Less
            </Button>
          )}
        </div>
      )}

      <CreateShiftDialog open={creating} onOpenChange={setCreating} />
    </section>
  );
}
