import { ChevronDown, ChevronUp, UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Alert, Spinner } from '../../components/ui/feedback';
import { fullName } from '../people/role-badge';
import { useAssignShift } from '../shifts/use-shifts';
import { useAlternatives } from './use-approvals';

/**
 * The staff who could be assigned the shift instead of its claimant, ranked with their reasons, read
 * only when the administrator opens the list (docs/product.md §2.12).
 */
export function ClaimAlternatives({ shiftId, claimant }: { shiftId: string; claimant: string }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const alternatives = useAlternatives(shiftId, open);
  const assign = useAssignShift(shiftId);
  return (
    <div className="grid gap-2">
      <Button
        size="sm"
        variant="ghost"
        className="justify-start px-2"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={`${open ? 'Hide' : 'Show'} alternatives to ${claimant}`}
        onClick={() => setOpen(!open)}
      >
        {open ? <ChevronUp aria-hidden /> : <ChevronDown aria-hidden />}
        {open ? 'Hide alternatives' : 'Show alternatives'}
      </Button>
      <div id={listId} hidden={!open}>
        {!open ? null : alternatives.isLoading ? (
          <Spinner label="Loading alternatives" />
        ) : alternatives.isError ? (
          <Alert className="border-red-200 bg-red-50 text-red-900">
            {alternatives.error.message || 'Failed to fetch alternatives'}
          </Alert>
        ) : (alternatives.data ?? []).length === 0 ? (
          <p className="text-sm text-slate-600">Nobody else is free and eligible for this shift.</p>
        ) : (
          <ol aria-label={`Alternatives to ${claimant}`} className="grid gap-2">
            {alternatives.data?.map((person) => (
              <li key={person.userId} className="grid gap-1 rounded-md border border-slate-200 p-2 text-sm">
                <div className="flex items-center justify-between gap-2">
                  <span className="min-w-0 break-words font-medium text-slate-800">
                    {person.rank}. {fullName(person)}
                    {person.username && (
                      <span className="font-normal text-slate-500"> @{person.username}</span>
                    )}
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={assign.isPending}
                    aria-label={`Assign ${fullName(person)} instead`}
                    onClick={() => assign.mutate({ staffId: person.userId })}
                  >
                    <UserPlus aria-hidden /> Assign
                  </Button>
                </div>
                <ul className="grid list-disc gap-0.5 pl-6 text-slate-700">
                  {person.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
