import { User } from 'lucide-react';
import { PriorityBadge, StatusBadge, TypeBadge } from '../../components/ui/shift-badges';
import { ShiftFacts } from '../../components/ui/shift-facts';
import { fullName } from '../people/role-badge';
import { ClaimAlternatives } from './claim-alternatives';
import type { ClaimDecision } from './claim-decision';
import { ClaimRanking } from './claim-ranking';
import { DecisionCard } from './decision-card';
import type { PendingShift } from './types';

const rings = { emergency: 'ring-2 ring-pink-400', urgent: 'ring-2 ring-red-300', open: '' };

export function PendingClaimCard({
  shift,
  onDecide,
  busy,
}: {
  shift: PendingShift;
  onDecide: (decision: ClaimDecision) => void;
  busy: boolean;
}) {
  return (
    <DecisionCard
      className={rings[shift.priority]}
      badges={
        <>
          <PriorityBadge priority={shift.priority} />
          <StatusBadge status="pending" />
          <TypeBadge type={shift.type} />
        </>
      }
      title={
        <>
          {shift.location} {shift.type} Shift
        </>
      }
      onDecide={onDecide}
      busy={busy}
    >
      <p className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <User className="size-4 text-slate-400" aria-hidden />
        <span className="min-w-0 break-words">
          <span className="sr-only">Claimed by </span>
          {fullName(shift.staffName)}
          {shift.staffName.username && (
            <span className="font-normal text-slate-500"> @{shift.staffName.username}</span>
          )}
        </span>
      </p>
      <ShiftFacts shift={shift} />
      <ClaimRanking shift={shift} />
      <ClaimAlternatives shiftId={shift.id} claimant={fullName(shift.staffName)} />
    </DecisionCard>
  );
}
