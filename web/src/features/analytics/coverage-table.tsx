import type { CoverageView } from '@shiftcover/domain';
import { fillRatePercent } from './coverage-figures';
import { weekLabel } from './week-label';

const hoursOrDash = (hours: number | null) => (hours === null ? '—' : `${hours} h`);

const head = 'px-3 py-2 text-left font-semibold text-slate-700';
const cell = 'px-3 py-2 align-top text-slate-800 tabular-nums';

/** Every figure of the charts, one row per week and residence: what screen readers and the CSV read. */
export function CoverageTable({ view }: { view: CoverageView }) {
  return (
    // Focusable, so every browser lets the keyboard scroll the wide table sideways (WCAG 2.1.1).
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard
      tabIndex={0}
      aria-labelledby="coverage-table-caption"
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-teal-600"
    >
      <table className="w-full min-w-[56rem] border-collapse text-sm">
        <caption
          id="coverage-table-caption"
          className="px-3 py-2 text-left text-base font-semibold text-slate-900"
        >
          Weekly figures by residence
        </caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={head}>
              Week of
            </th>
            <th scope="col" className={head}>
              Residence
            </th>
            <th scope="col" className={head}>
              Posted
            </th>
            <th scope="col" className={head}>
              Filled
            </th>
            <th scope="col" className={head}>
              Unfilled at start
            </th>
            <th scope="col" className={head}>
              Fill rate
            </th>
            <th scope="col" className={head}>
              Median time to fill
            </th>
            <th scope="col" className={head}>
              90th percentile time to fill
            </th>
            <th scope="col" className={head}>
              Drops under 24 h notice
            </th>
            <th scope="col" className={head}>
              Hours by staff member
            </th>
          </tr>
        </thead>
        <tbody>
          {view.weeks.map((w) => (
            <tr key={`${w.weekStart} ${w.residence}`} className="border-t border-slate-200">
              <th scope="row" className={`${cell} text-left font-medium`}>
                {weekLabel(w.weekStart)}
              </th>
              <td className={cell}>{w.residence}</td>
              <td className={cell}>{w.posted}</td>
              <td className={cell}>{w.filled}</td>
              <td className={cell}>{w.unfilledAtStart}</td>
              <td className={cell}>{fillRatePercent(w.fillRate)}%</td>
              <td className={cell}>{hoursOrDash(w.medianHoursToFill)}</td>
              <td className={cell}>{hoursOrDash(w.p90HoursToFill)}</td>
              <td className={cell}>{w.lateDrops}</td>
              <td className={cell}>
                {w.hoursByStaff.length === 0
                  ? '—'
                  : w.hoursByStaff.map((h) => `${h.name} ${h.hours} h`).join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
