import { can } from '@shiftcover/domain';
import { lazyRouteComponent } from '@tanstack/react-router';
import { AlertTriangle, CalendarDays, CalendarX, List, Plus } from 'lucide-react';
import { type ReactNode, Suspense, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { MAIN_ID } from '../../lib/focus';
import { useWideScreen } from '../../lib/use-wide-screen';
import { principalOf, useSignedInUser } from '../auth/session';
import { RoleBadge } from '../people/role-badge';
import { FilterPanel, FilterSheetButton } from './filter-panel';
import { ShiftCardList } from './shift-card-list';
import { defaultFilters, type ShiftFilters } from './shift-filters';
import { countText, listCountText, type ShiftList, urgentCoverage } from './shift-list';
import { useOpenShiftCount, useShifts } from './use-shifts';
import { SCREEN_GRID, WelcomeLine } from './welcome';

type View = 'list' | 'calendar';

/**
 * Cards drawn at first, and drawn more at each Show More: a list of thousands of open shifts
 * would otherwise be drawn whole before a phone could answer a tap.
 */
const CARDS_AT_ONCE = 50;

/** The calendar is fetched when the view is first switched to it, the shift form when first opened. */
const CalendarView = lazyRouteComponent(() => import('./calendar/calendar-view'), 'CalendarView');
const CreateShiftDialog = lazyRouteComponent(() => import('./create-shift-dialog'), 'CreateShiftDialog');

function QuickStats() {
  const open = useOpenShiftCount();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Quick Stats</CardTitle>
      </CardHeader>
      <CardContent className="flex items-baseline justify-between">
        <span className="text-sm text-slate-600">Open Shifts</span>
        <span className="text-2xl font-semibold text-slate-900">{open.data ?? '–'}</span>
      </CardContent>
    </Card>
  );
}

/** Shown while any listed shift is urgent or emergency; '100+' while the count may still grow. */
function UrgentCoverageAlert({ list }: { list: ShiftList }) {
  const { count, complete } = urgentCoverage(list);
  if (count === 0) return null;
  return (
    <Alert className="border-red-200 bg-red-50 text-red-900">
      <AlertTriangle className="size-5 shrink-0" aria-hidden />
      <div>
        <p className="font-semibold">Urgent Coverage Needed</p>
        <p>
          {count === 1 && complete ? '1 shift needs' : `${countText(count, complete)} shifts need`} immediate
          coverage.
        </p>
      </div>
    </Alert>
  );
}

/**
 * The chosen view is filled teal, the other plain. The colours switch at once: a fade between them
 * leaves both options half-tinted for a moment, which reads as disabled.
 */
const viewOption = 'transition-none aria-pressed:bg-teal-700 aria-pressed:text-white aria-pressed:shadow-sm';

function ViewToggle({ view, onChange }: { view: View; onChange(view: View): void }) {
  const option = (value: View, icon: ReactNode, label: string) => (
    <Button
      size="sm"
      variant="ghost"
      className={viewOption}
      aria-pressed={view === value}
      onClick={() => onChange(value)}
    >
      {icon} {label}
    </Button>
  );
  return (
    <fieldset className="flex gap-1 rounded-lg border border-slate-200 bg-white p-1">
      <legend className="sr-only">View</legend>
      {option('list', <List aria-hidden />, 'List')}
      {option('calendar', <CalendarDays aria-hidden />, 'Calendar')}
    </fieldset>
  );
}

/** docs/product.md §2 Available Shifts (route /): filters, quick stats, and the shifts as a list or a calendar. */
export function AvailableShiftsScreen() {
  const user = useSignedInUser();
  const [filters, setFilterState] = useState<ShiftFilters>(defaultFilters);
  const [visible, setVisible] = useState(CARDS_AT_ONCE);
  const [view, setView] = useState<View>('list');
  const [creating, setCreating] = useState(false);
  const wide = useWideScreen();
  // The shifts of one more 'Show More Shifts' are held ahead, so a tap draws them at once.
  const shifts = useShifts(filters, visible + CARDS_AT_ONCE);
  const list = shifts.data ?? { shifts: [], complete: false };

  function setFilters(next: ShiftFilters) {
    setFilterState(next);
    setVisible(CARDS_AT_ONCE);
  }

  let body: ReactNode;
  if (shifts.isPending) body = <Spinner label="Loading shifts" />;
  else if (shifts.isError && !shifts.data) {
    body = <Alert className="border-red-200 bg-red-50 text-red-900">{shifts.error.message}</Alert>;
  } else if (view === 'calendar') {
    body = (
      <Suspense fallback={<Spinner label="Loading calendar" />}>
        <CalendarView filters={filters} />
      </Suspense>
    );
  } else if (list.shifts.length === 0 && list.complete) {
    body = (
      <EmptyState icon={<CalendarX />} title="No shifts found">
        Try adjusting your filters to see more shifts.
      </EmptyState>
    );
  } else {
    body = (
      <ShiftCardList
        // Each filter's list is drawn anew from its first cards, even when it is already held.
        key={JSON.stringify(filters)}
        list={list}
        visible={visible}
        failure={shifts.error?.message}
        onShowMore={() => setVisible(visible + CARDS_AT_ONCE)}
      />
    );
  }

  return (
    <main id={MAIN_ID} tabIndex={-1} className={SCREEN_GRID}>
      {/* Floating at the bottom right, but first in the tab order: the screen's main action. */}
      {can(principalOf(user), 'createShift') && (
        <>
          <Button
            size="icon"
            aria-label="Create New Shift"
            className="fixed right-6 bottom-6 z-40 size-14 rounded-full shadow-lg [&_svg]:size-6"
            onClick={() => setCreating(true)}
          >
            <Plus aria-hidden />
          </Button>
          {creating && (
            <Suspense fallback={null}>
              <CreateShiftDialog open onOpenChange={setCreating} />
            </Suspense>
          )}
        </>
      )}
      {wide && (
        <aside className="hidden content-start gap-4 lg:grid" aria-label="Filters and stats">
          <FilterPanel filters={filters} onChange={setFilters} />
          <QuickStats />
        </aside>
      )}
      <div className="grid min-w-0 content-start gap-5">
        <WelcomeLine firstName={user.firstName}>
          <RoleBadge role={user.role} />
        </WelcomeLine>
        {!wide && (
          <div className="lg:hidden">
            <QuickStats />
          </div>
        )}
        <UrgentCoverageAlert list={list} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold text-slate-900">
            Available Shifts {shifts.data && <span className="text-slate-500">({listCountText(list)})</span>}
          </h2>
          <div className="flex flex-wrap gap-2">
            {!wide && <FilterSheetButton filters={filters} onChange={setFilters} />}
            <ViewToggle view={view} onChange={setView} />
          </div>
        </div>
        {body}
      </div>
    </main>
  );
}
