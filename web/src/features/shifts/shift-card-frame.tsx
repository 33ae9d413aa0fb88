import { can } from '@shiftcover/domain';
import { type ReactNode, useId } from 'react';
import type { Shift } from '../../api/types';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { PriorityBadge, StatusBadge, TypeBadge } from '../../components/ui/shift-badges';
import { ShiftFacts } from '../../components/ui/shift-facts';
import { cn } from '../../lib/cn';
import { usePrincipal } from '../auth/session';

/**
 * A shift card's frame: badges, the title that names the card, the id for those who may see it
 * (below the title, or beside it with `idBeside`), the facts, then `children`.
 */
export function ShiftCardFrame({
  shift,
  className,
  idBeside = false,
  children,
}: {
  shift: Shift;
  className?: string;
  idBeside?: boolean;
  children: ReactNode;
}) {
  const principal = usePrincipal();
  const titleId = useId();
  return (
    <Card role="article" aria-labelledby={titleId} className={cn('grid gap-3 p-4', className)}>
      <div className="flex flex-wrap items-center gap-1.5">
        <StatusBadge status={shift.status} />
        {shift.status !== shift.priority && <PriorityBadge priority={shift.priority} />}
        <TypeBadge type={shift.type} />
        {shift.transferRequested && (
          <Badge className="border-transparent bg-indigo-100 text-indigo-900">Transfer Requested</Badge>
        )}
      </div>
      <div className={idBeside ? 'flex flex-wrap items-baseline justify-between gap-x-3' : 'grid gap-0.5'}>
        <h3 id={titleId} className="font-semibold text-slate-900">
          {shift.location} {shift.type} Shift
        </h3>
        {can(principal, 'seeShiftIds') && (
          <span className="font-mono text-xs break-all text-slate-500">ID: {shift.id}</span>
        )}
      </div>
      <ShiftFacts shift={shift} />
      {children}
    </Card>
  );
}
