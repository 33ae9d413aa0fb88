import { easternToday, formatShiftDate } from '@shiftcover/domain';
import { Trash2 } from 'lucide-react';
import type { Credential } from '../../api/types';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { expiryState } from './rules';

function ExpiryLine({ expiresOn, today }: { expiresOn: string | null; today: string }) {
  const state = expiryState(expiresOn, today);
  if (!expiresOn) return <span className="text-sm text-slate-600">No expiry date</span>;
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      {state === 'expired' ? 'Expired' : 'Expires'} {formatShiftDate(expiresOn)}
      {state === 'expired' && <Badge variant="destructive">Expired</Badge>}
      {state === 'soon' && (
        <Badge className="border-transparent bg-amber-100 text-amber-900">Expires soon</Badge>
      )}
    </span>
  );
}

/** A person's credentials with their expiry; `onRemove` adds a Remove button for administrators. */
export function CredentialList({
  credentials,
  owner,
  onRemove,
}: {
  credentials: readonly Credential[];
  /** Whose credentials, for the list's accessible name. */
  owner: string;
  onRemove?(credential: Credential): void;
}) {
  const today = easternToday(new Date());
  return (
    <ul
      aria-label={`Credentials of ${owner}`}
      className="divide-y divide-slate-200 rounded-lg border border-slate-200"
    >
      {credentials.map((credential) => (
        <li key={credential.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
          <div className="grid gap-0.5">
            <span className="font-medium text-slate-900">{credential.name}</span>
            <ExpiryLine expiresOn={credential.expiresOn} today={today} />
          </div>
          {onRemove && (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-700 hover:bg-red-50"
              aria-label={`Remove ${credential.name}`}
              onClick={() => onRemove(credential)}
            >
              <Trash2 aria-hidden /> Remove
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
