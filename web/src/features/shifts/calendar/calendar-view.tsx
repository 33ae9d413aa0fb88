import { easternToday, formatShiftDate } from '@shiftcover/domain';
import { ChevronLeft, ChevronRight, Siren } from 'lucide-react';
import { useState } from 'react';
import type { Shift, ShiftType } from '../../../api/types';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Alert } from '../../../components/ui/feedback';
import { cn } from '../../../lib/cn';
import type { ShiftFilters } from '../shift-filters';
import { useShiftsBetween } from '../use-shifts';
import { calendarColors } from './calendar-colors';
import { DaySheet } from './day-sheet';
import { addMonths, byDate, type CalendarDay, monthGrid, monthOf, monthTitle } from './month-grid';

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function DayCell({ day, shifts, onOpen }: { day: CalendarDay; shifts: Shift[]; onOpen(): void }) {
  const [first] = shifts;
  const emergency = shifts.some((s) => s.priority === 'emergency');
  const label = `${formatShiftDate(day.date)}: ${shifts.length === 1 ? '1 shift' : `${shifts.length} shifts`}${emergency ? ', emergency' : ''}`;
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={label}
      className={cn(
        'flex min-h-14 min-w-0 flex-col gap-1 border-t border-l border-slate-200 p-1 text-left text-xs hover:bg-slate-50 focus-visible:relative focus-visible:outline-2 focus-visible:outline-teal-600 sm:min-h-24 sm:p-1.5',
        !day.inMonth && 'bg-slate-50 text-slate-500',
      )}
    >
      <span className="flex items-center justify-between gap-1">
        <span
          className={cn(
            'grid size-6 place-items-center rounded-full font-medium',
            day.isToday && 'bg-teal-700 text-white',
          )}
        >
          {day.day}
        </span>
        {emergency && <Siren className="size-3.5 animate-siren text-pink-600" aria-hidden />}
      </span>
      {first && (
        <>
          {/* Phones show a coloured dot per shift; wider screens name the first location. */}
          <span className="flex flex-wrap gap-0.5 sm:hidden" aria-hidden>
            {shifts.slice(0, 4).map((s) => (
              <span key={s.id} className={cn('size-2 rounded-full', calendarColors[s.type].dot)} />
            ))}
          </span>
          <span
            className={cn(
              'hidden truncate rounded border px-1 py-0.5 font-medium sm:block',
              calendarColors[first.type].chip,
            )}
            aria-hidden
          >
            {first.location}
          </span>
          {shifts.length > 1 && (
            <span className="text-[11px] text-slate-600" aria-hidden>
              +{shifts.length - 1} more
            </span>
          )}
        </>
      )}
    </button>
  );
}

function Legend() {
  return (
    <ul className="flex flex-wrap gap-4 text-xs text-slate-700" aria-label="Legend">
      {(Object.keys(calendarColors) as ShiftType[]).map((type) => (
        <li key={type} className="flex items-center gap-1.5">
          <span className={cn('size-3 rounded-full', calendarColors[type].dot)} aria-hidden />
          {type}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <Siren className="size-3.5 text-pink-600" aria-hidden /> Emergency
      </li>
    </ul>
  );
}

/**
 * docs/product.md §2 Calendar view: the shifts the filters select, on a month grid; a day opens
 * its shifts beside it. It asks the server for the days the grid shows, and no others.
 */
export function CalendarView({ filters }: { filters: ShiftFilters }) {
  const today = easternToday(new Date());
  const [month, setMonth] = useState(() => monthOf(today));
  const [openDate, setOpenDate] = useState<string | null>(null);
  const weeks = monthGrid(month, today);
  const shown = weeks.flat();
  const shifts = useShiftsBetween(filters, { from: shown[0]!.date, to: shown.at(-1)!.date });
  const days = byDate(shifts.data ?? []);

  return (
    <Card className="grid gap-3 p-3 sm:p-4" aria-busy={shifts.isFetching}>
      {shifts.isError && (
        <Alert className="border-red-200 bg-red-50 text-red-900">{shifts.error.message}</Alert>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900" aria-live="polite">
          {monthTitle(month)}
        </h3>
        <div className="flex gap-1.5">
          <Button
            size="icon"
            variant="outline"
            aria-label="Previous month"
            onClick={() => setMonth(addMonths(month, -1))}
          >
            <ChevronLeft aria-hidden />
          </Button>
          <Button variant="outline" onClick={() => setMonth(monthOf(today))}>
            Today
          </Button>
          <Button
            size="icon"
            variant="outline"
            aria-label="Next month"
            onClick={() => setMonth(addMonths(month, 1))}
          >
            <ChevronRight aria-hidden />
          </Button>
        </div>
      </div>
      <div className="grid grid-cols-7 overflow-hidden rounded-lg border-r border-b border-slate-200">
        {weekdays.map((name) => (
          <div
            key={name}
            className="border-t border-l border-slate-200 bg-slate-100 py-1 text-center text-xs font-medium text-slate-600"
          >
            {name}
          </div>
        ))}
        {weeks.flat().map((day) => (
          <DayCell
            key={day.date}
            day={day}
            shifts={days.get(day.date) ?? []}
            onOpen={() => setOpenDate(day.date)}
          />
        ))}
      </div>
      <Legend />
      <DaySheet
        date={openDate}
        shifts={openDate ? (days.get(openDate) ?? []) : []}
        onOpenChange={(open) => !open && setOpenDate(null)}
      />
    </Card>
  );
}
