import type { CoverageView } from '@shiftcover/domain';
import type { ReactElement } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Card } from '../../components/ui/card';
import { fillRatePercent, staffHours, weekTotals } from './coverage-figures';
import { weekLabel } from './week-label';

// Tailwind's teal-700, red-700, slate-500 and further hues dark enough to read on white.
const palette = ['#0f766e', '#1d4ed8', '#b45309', '#7e22ce', '#be123c', '#15803d', '#334155'];
const tick = { fill: '#475569', fontSize: 12 };

/**
 * A chart drawn for the eye: screen readers get its name and the table below, which holds the same
 * figures, so the drawing itself is one image.
 */
function ChartCard({ title, summary, children }: { title: string; summary: string; children: ReactElement }) {
  return (
    <Card className="grid gap-2 p-4">
      <h3 className="text-base font-semibold text-slate-900">{title}</h3>
      <div role="img" aria-label={`${title}: ${summary}`} className="h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </Card>
  );
}

export function CoverageCharts({ view }: { view: CoverageView }) {
  const totals = weekTotals(view).map((w) => ({
    ...w,
    week: weekLabel(w.weekStart),
    notStarted: w.posted - w.filled - w.unfilledAtStart,
  }));
  const rates = weekTotals(view).map((w) => {
    const row: Record<string, string | number | null> = { week: weekLabel(w.weekStart) };
    for (const residence of view.residences) {
      const figures = view.weeks.find((x) => x.weekStart === w.weekStart && x.residence === residence);
      row[residence] = figures ? fillRatePercent(figures.fillRate) : null;
    }
    return row;
  });
  const hours = staffHours(view);
  const postedInAll = totals.reduce((sum, w) => sum + w.posted, 0);
  const filledInAll = totals.reduce((sum, w) => sum + w.filled, 0);

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartCard
        title="Shifts by week"
        summary={`${postedInAll} shifts posted, ${filledInAll} filled; every week's figures are in the table below.`}
      >
        <BarChart data={totals} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="week" tick={tick} />
          <YAxis allowDecimals={false} tick={tick} width={32} />
          <Tooltip />
          <Legend />
          <Bar dataKey="filled" name="Filled" stackId="shifts" fill={palette[0]} />
          <Bar dataKey="unfilledAtStart" name="Unfilled at start" stackId="shifts" fill="#b91c1c" />
          <Bar dataKey="notStarted" name="Not started, unfilled" stackId="shifts" fill="#64748b" />
        </BarChart>
      </ChartCard>
      <ChartCard
        title="Fill rate by residence"
        summary="the share of each residence's shifts filled, week by week, in percent; the table below has each figure."
      >
        <LineChart data={rates} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="week" tick={tick} />
          <YAxis domain={[0, 100]} unit="%" tick={tick} width={44} />
          <Tooltip />
          <Legend />
          {view.residences.map((residence, i) => (
            <Line
              key={residence}
              dataKey={residence}
              name={residence}
              stroke={palette[i % palette.length]}
              strokeWidth={2}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ChartCard>
      <ChartCard
        title="Hours by staff member"
        summary={
          hours.length === 0
            ? 'nobody held a shift in this range.'
            : hours.map((h) => `${h.name} ${h.hours} h`).join(', ')
        }
      >
        <BarChart data={hours} layout="vertical" accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" unit=" h" tick={tick} />
          <YAxis type="category" dataKey="name" tick={tick} width={110} />
          <Tooltip />
          <Bar dataKey="hours" name="Hours" fill={palette[1]} />
        </BarChart>
      </ChartCard>
    </div>
  );
}
