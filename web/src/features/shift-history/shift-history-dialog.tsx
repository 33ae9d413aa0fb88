import type { ShiftHistoryEntryView as HistoryEntry } from '@shiftcover/domain';
import { easternWeekdayTimestamp } from '@shiftcover/domain';
import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useState } from 'react';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogHeader } from '../../components/ui/dialog';
import { EmptyState, Spinner } from '../../components/ui/feedback';
import { OutreachList } from './outreach-list';

/** 'ClaimApproved' → 'Claim approved'. */
export function eventLabel(type: string): string {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Administrators: the shift's every event, who did it and when, one click from its card. */
export function ShiftHistoryButton({ shiftId, label }: { shiftId: string; label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={`History of ${label}`}>
        <History aria-hidden /> History
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-2xl">
          <DialogHeader
            title="Shift History"
            description={`Every change to ${label}, oldest first (Eastern time).`}
          />
          {open && (
            <div className="grid gap-4">
              <HistoryList shiftId={shiftId} />
              <OutreachList shiftId={shiftId} />
            </div>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}

function HistoryList({ shiftId }: { shiftId: string }) {
  const { data, isLoading, error } = useQuery({
    queryKey: keys.shiftHistory(shiftId),
    queryFn: () => api.get<HistoryEntry[]>(`/api/shifts/${shiftId}/history`),
    staleTime: 0,
  });
  if (isLoading) return <Spinner label="Loading history" />;
  if (error || !data) return <EmptyState title="History unavailable">{error?.message}</EmptyState>;
  return (
    <ol className="grid gap-3">
      {data.map((entry) => (
        <li key={entry.revision} className="rounded-lg border border-slate-200 p-3">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
            <p className="font-medium text-slate-900">{eventLabel(entry.type)}</p>
            <time dateTime={entry.at} className="text-xs text-slate-500">
              {easternWeekdayTimestamp(entry.at)}
            </time>
          </div>
          <p className="text-sm text-slate-600">
            by {entry.actorName} <span className="text-slate-500">({entry.actorRole})</span>
          </p>
          {/* What the state does not keep: why a rule refused, or why an administrator overrode one. */}
          {entry.detail && <p className="mt-1 text-sm text-slate-800">{entry.detail}</p>}
          {entry.changes.length > 0 && (
            <ul className="mt-2 grid gap-0.5 break-words font-mono text-xs text-slate-700">
              {entry.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
