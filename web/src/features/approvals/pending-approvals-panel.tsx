import { can, refusalFor } from '@shiftcover/domain';
import { CheckCircle2, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { useLoadMore } from '../../api/load-more';
import { Button } from '../../components/ui/button';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { Label, Select } from '../../components/ui/form';
import { usePrincipal } from '../auth/session';
import { locationFilterOptions, useResidences } from '../residences/use-residences';
import { PanelHeading } from './panel-heading';
import { PendingClaimCard } from './pending-claim-card';
import { PENDING_PAGE_SIZE } from './pending-list';
import { useDecideClaim, usePendingApprovals } from './use-approvals';

/**
 * docs/product.md §2.12 "Pending Approvals panel": claims awaiting a decision, most pressing first,
 * a server page at a time; Load More Claims brings the next page.
 */
export function PendingApprovalsPanel() {
  const principal = usePrincipal();
  const filterable = can(principal, 'filterPendingByLocation');
  const [location, setLocation] = useState('all');
  const pending = usePendingApprovals(location);
  const residences = useResidences(filterable);
  const decide = useDecideClaim();
  const shifts = pending.data?.claims ?? [];
  const more = useLoadMore(pending, shifts.length, location);

  if (!can(principal, 'viewPendingApprovals')) {
    return (
      <Alert className="border-red-200 bg-red-50 text-red-900">
        <ShieldAlert className="size-5 shrink-0" aria-hidden />
        {refusalFor('viewPendingApprovals')}
      </Alert>
    );
  }

  const remaining = (pending.data?.total ?? 0) - shifts.length;
  return (
    <section aria-labelledby="pending-approvals-heading" className="grid gap-4">
      <PanelHeading
        id="pending-approvals-heading"
        title="Pending Approvals"
        description="Shift claims waiting for your decision"
        count={pending.data?.total}
      >
        {filterable && (
          <div className="flex items-center gap-2">
            <Label htmlFor="pending-location" className="shrink-0">
              Location
            </Label>
            <Select
              id="pending-location"
              className="sm:w-52"
              value={location}
              onChange={(e) => setLocation(e.target.value)}
            >
              {locationFilterOptions(residences.data).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </div>
        )}
      </PanelHeading>
      {pending.isLoading ? (
        <Spinner label="Loading pending approvals" />
      ) : pending.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">
          {pending.error.message || 'Failed to fetch pending shifts'}
        </Alert>
      ) : shifts.length === 0 ? (
        <EmptyState icon={<CheckCircle2 />} title="No Pending Approvals">
          Every shift claim has been reviewed.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {shifts.map((shift) => (
            <li key={shift.id} className="grid">
              <PendingClaimCard
                shift={shift}
                busy={decide.isPending && decide.variables?.shiftId === shift.id}
                onDecide={(decision) => decide.mutate({ shiftId: shift.id, decision })}
              />
            </li>
          ))}
        </ul>
      )}
      {shifts.length > 0 && pending.hasNextPage && (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => more.loadMore(PENDING_PAGE_SIZE)} aria-busy={more.loading}>
            {more.loading
              ? 'Loading more claims...'
              : remaining > 0
                ? `Load More Claims (${remaining} remaining)`
                : 'Load More Claims'}
          </Button>
        </div>
      )}
    </section>
  );
}
