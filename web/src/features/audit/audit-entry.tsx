import { easternTimestamp } from '@shiftcover/domain';
import { Mail } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { RoleBadge } from '../people/role-badge';
import { actionTone, humanize } from './audit-filters';
import type { AuditEntry as Entry } from './use-audit-logs';

const toneStyles = {
  removal: 'border-red-200 bg-red-50 text-red-800',
  change: 'border-amber-200 bg-amber-50 text-amber-900',
  creation: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  neutral: 'border-slate-200 bg-slate-50 text-slate-700',
};

/** One audit entry: what happened, when (Eastern time), who did it, and the raw details on request. */
export function AuditEntry({ entry, onResend }: { entry: Entry; onResend?: () => void }) {
  const actor = `${entry.userFirstName} ${entry.userLastName}`.trim();
  return (
    <li className="grid gap-2 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge className={cn(toneStyles[actionTone(entry.action)])}>{humanize(entry.action)}</Badge>
          <time dateTime={entry.timestamp} className="text-xs text-slate-600">
            {easternTimestamp(entry.timestamp)}
          </time>
        </div>
        {onResend && (
          <Button variant="outline" size="sm" onClick={onResend}>
            <Mail aria-hidden />
            Resend Email
          </Button>
        )}
      </div>
      <p className="text-sm text-slate-900 [overflow-wrap:anywhere]">{entry.description}</p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
        <span>
          By <span className="font-medium text-slate-800">{actor || entry.userName}</span>
        </span>
        {entry.userRole && <RoleBadge role={entry.userRole} />}
        {entry.userEmail && <span className="[overflow-wrap:anywhere]">{entry.userEmail}</span>}
        <span className="[overflow-wrap:anywhere]">
          {humanize(entry.entityType)} · <span className="font-mono">{entry.entityId}</span>
        </span>
      </div>
      <details className="group text-xs">
        <summary className="w-fit cursor-pointer rounded text-teal-800 hover:underline focus-visible:outline-2 focus-visible:outline-teal-600">
          View Technical Details
        </summary>
        <pre className="mt-2 max-h-64 overflow-auto rounded-md bg-slate-900 p-3 text-[11px] leading-relaxed text-slate-100 whitespace-pre-wrap [overflow-wrap:anywhere]">
          {JSON.stringify(entry.details, null, 2)}
        </pre>
      </details>
    </li>
  );
}
