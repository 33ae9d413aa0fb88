import type { IneligibilityReason } from '../../api/types';
import { cn } from '../../lib/cn';
import { ruleLabel } from './rules';

/** The reasons a person may not take a shift, each after the name of its rule when it is one. */
export function ReasonList({
  reasons,
  id,
  className,
}: {
  reasons: readonly IneligibilityReason[];
  id?: string;
  className?: string;
}) {
  return (
    <ul id={id} className={cn('grid gap-1 text-sm', className)}>
      {reasons.map((reason) => {
        const rule = ruleLabel(reason.code);
        return (
          <li key={`${reason.code}:${reason.message}`}>
            {rule && <span className="font-medium">{rule}:</span>} {reason.message}
          </li>
        );
      })}
    </ul>
  );
}
