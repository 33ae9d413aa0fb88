import { ListOrdered } from 'lucide-react';
import type { PendingShift } from './types';

/** Where the claim stands among the claims for its slot, and the reasons (docs/product.md §2.12). */
export function ClaimRanking({
  shift,
}: {
  shift: Pick<PendingShift, 'rank' | 'slotClaims' | 'rankReasons'>;
}) {
  const standing =
    shift.slotClaims === 1
      ? 'Only claim for this slot'
      : `Rank ${shift.rank} of ${shift.slotClaims} for this slot`;
  return (
    <div className="grid gap-1 rounded-md bg-slate-50 p-2 text-sm">
      <h4 className="flex items-center gap-2 font-medium text-slate-800">
        <ListOrdered className="size-4 text-slate-500" aria-hidden />
        {standing}
      </h4>
      <ul className="grid list-disc gap-0.5 pl-6 text-slate-700">
        {shift.rankReasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  );
}
