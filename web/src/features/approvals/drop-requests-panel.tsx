import { CheckCircle2 } from 'lucide-react';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { DropRequestCard } from './drop-request-card';
import { PanelHeading } from './panel-heading';
import { useDecideDrop, useDropRequests } from './use-approvals';

/** docs/product.md §2 "Drop Requests panel": staff asking to give a shift back, oldest request first. */
export function DropRequestsPanel() {
  const requests = useDropRequests();
  const decide = useDecideDrop();
  return (
    <section aria-labelledby="drop-requests-heading" className="grid gap-4">
      <PanelHeading
        id="drop-requests-heading"
        title="Drop Requests"
        description="Approving a drop opens the shift to others; denying keeps the staff member assigned."
        count={requests.data?.length}
      />
      {requests.isLoading ? (
        <Spinner label="Loading drop requests" />
      ) : requests.isError ? (
        <Alert className="border-red-200 bg-red-50 text-red-900">{requests.error.message}</Alert>
      ) : requests.data?.length === 0 ? (
        <EmptyState icon={<CheckCircle2 />} title="No Drop Requests">
          No one has asked to drop a shift.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {requests.data?.map((request) => (
            <li key={request.id} className="grid">
              <DropRequestCard
                request={request}
                busy={decide.isPending && decide.variables?.id === request.id}
                onDecide={(decision) => decide.mutate({ id: request.id, decision })}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
