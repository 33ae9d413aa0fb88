import { Check, X } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import type { ClaimDecision } from './claim-decision';

/** A request awaiting an administrator: its badges, a title that names the card, the body, Approve and Deny. */
export function DecisionCard({
  badges,
  title,
  titleClassName,
  className,
  children,
  onDecide,
  busy,
}: {
  badges: ReactNode;
  title: ReactNode;
  titleClassName?: string;
  className?: string;
  children: ReactNode;
  onDecide: (decision: ClaimDecision) => void;
  busy: boolean;
}) {
  const titleId = useId();
  return (
    <Card role="article" aria-labelledby={titleId} className={cn('flex flex-col gap-3 p-4', className)}>
      <div className="flex flex-wrap items-center gap-1.5">{badges}</div>
      <h3 id={titleId} className={cn(titleClassName, 'font-semibold text-slate-900')}>
        {title}
      </h3>
      {children}
      <div className="mt-auto flex gap-2 pt-1">
        <Button size="sm" className="flex-1" disabled={busy} onClick={() => onDecide('approve')}>
          <Check aria-hidden /> Approve
        </Button>
        <Button
          size="sm"
          variant="outline"
          className="flex-1 border-red-300 text-red-700 hover:bg-red-50"
          disabled={busy}
          onClick={() => onDecide('deny')}
        >
          <X aria-hidden /> Deny
        </Button>
      </div>
    </Card>
  );
}
