import { easternDayTime } from '@shiftcover/domain';
import { Hourglass, User } from 'lucide-react';
import { TypeBadge } from '../../components/ui/shift-badges';
import { ShiftFacts } from '../../components/ui/shift-facts';
import { fullName } from '../people/role-badge';
import type { ClaimDecision } from './claim-decision';
import { DecisionCard } from './decision-card';
import type { DropRequest } from './types';

export function DropRequestCard({
  request,
  onDecide,
  busy,
}: {
  request: DropRequest;
  onDecide: (decision: ClaimDecision) => void;
  busy: boolean;
}) {
  return (
    <DecisionCard
      badges={
        <>
          <TypeBadge type={request.type} />
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
            Drop Requested
          </span>
        </>
      }
      titleClassName="flex items-center gap-2"
      title={
        <>
          <User className="size-4 text-slate-400" aria-hidden />
          <span className="min-w-0 break-words">
            {fullName(request.staffName)}
            <span className="sr-only">
              {' '}
              asks to drop {request.location} {request.type} Shift
            </span>
          </span>
        </>
      }
      onDecide={onDecide}
      busy={busy}
    >
      <ShiftFacts shift={request} />
      {request.dropRequestedAt && (
        <p className="flex items-center gap-2 text-xs text-slate-500">
          <Hourglass className="size-3.5" aria-hidden />
          Requested {easternDayTime(request.dropRequestedAt)}
        </p>
      )}
    </DecisionCard>
  );
}
