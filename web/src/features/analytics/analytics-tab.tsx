import { isSeniorAdministrator } from '@shiftcover/domain';
import { BarChart3, Download } from 'lucide-react';
import { useState } from 'react';
import { buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { Field, Input, SelectField } from '../../components/ui/form';
import { usePrincipal } from '../auth/session';
import { locationFilterOptions, useResidences } from '../residences/use-residences';
import { CoverageCharts } from './coverage-charts';
import { type CoverageFilters, defaultCoverageFilters, rangeProblem } from './coverage-figures';
import { CoverageTable } from './coverage-table';
import { coveragePath, useCoverage } from './use-coverage';

/** Admin Dashboard tab: how well shifts were covered, week by week (docs/product.md §2 Analytics). */
export function AnalyticsTab() {
  const everyResidence = isSeniorAdministrator(usePrincipal());
  const residences = useResidences(everyResidence);
  const [filters, setFilters] = useState<CoverageFilters>(() => defaultCoverageFilters(new Date()));
  const problem = rangeProblem(filters);
  const coverage = useCoverage(filters, problem === null);
  const view = coverage.data;

  return (
    <div className="grid gap-4">
      <Card className="grid gap-4 p-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Coverage analytics</h2>
          <p className="text-sm text-slate-600">
            Shifts dated in the range, by residence and week (Monday to Sunday, Eastern time).
          </p>
        </div>
        <div className="grid grid-cols-1 items-end gap-3 min-[420px]:grid-cols-2 md:grid-cols-4">
          <Field label="From" error={problem ?? undefined}>
            {(props) => (
              <Input
                {...props}
                type="date"
                value={filters.from}
                onChange={(e) => setFilters({ ...filters, from: e.target.value })}
              />
            )}
          </Field>
          <Field label="To">
            {(props) => (
              <Input
                {...props}
                type="date"
                value={filters.to}
                onChange={(e) => setFilters({ ...filters, to: e.target.value })}
              />
            )}
          </Field>
          {everyResidence && (
            <SelectField
              label="Residence"
              value={filters.residence}
              options={locationFilterOptions(residences.data)}
              busy={residences.isPending}
              onChange={(residence) => setFilters({ ...filters, residence })}
            />
          )}
          {problem === null && (
            <a
              href={coveragePath(filters, '.csv')}
              download
              className={buttonVariants({ variant: 'outline' })}
            >
              <Download aria-hidden />
              Download CSV
            </a>
          )}
        </div>
      </Card>
      {coverage.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-800">{coverage.error.message}</Alert>
      ) : problem !== null ? null : !view ? (
        <Spinner label="Loading coverage analytics" />
      ) : view.weeks.length === 0 ? (
        <EmptyState icon={<BarChart3 />} title="No shifts in this range">
          Choose other dates to see their coverage.
        </EmptyState>
      ) : (
        <>
          <CoverageCharts view={view} />
          <CoverageTable view={view} />
        </>
      )}
    </div>
  );
}
