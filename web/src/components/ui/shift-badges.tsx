import { Siren } from 'lucide-react';
import type { Priority, ShiftStatus, ShiftType } from '../../api/types';
import { cn } from '../../lib/cn';
import { Badge } from './badge';

/** docs/product.md §2 badge colours; every badge carries its word, so colour is never the only signal. */
const statusStyles: Record<ShiftStatus, string> = {
  open: 'bg-green-100 text-green-900',
  pending: 'bg-yellow-100 text-yellow-900',
  approved: 'bg-emerald-100 text-emerald-900',
  urgent: 'bg-red-100 text-red-900',
  emergency: 'bg-pink-100 text-pink-900',
  completed: 'bg-slate-200 text-slate-800',
  expired: 'bg-zinc-100 text-zinc-700',
};

const statusLabels: Record<ShiftStatus, string> = {
  open: 'Normal',
  pending: 'Pending',
  approved: 'Approved',
  urgent: 'Urgent',
  emergency: 'Emergency',
  completed: 'COMPLETED',
  expired: 'Expired',
};

const typeStyles: Record<ShiftType, string> = {
  AM: 'bg-yellow-50 text-yellow-900 border-yellow-300',
  PM: 'bg-orange-50 text-orange-900 border-orange-300',
  Overnight: 'bg-purple-50 text-purple-900 border-purple-300',
};

export function StatusBadge({ status, className }: { status: ShiftStatus; className?: string }) {
  return (
    <Badge className={cn('border-transparent', statusStyles[status], className)}>
      {status === 'emergency' && <Siren className="animate-siren" aria-hidden />}
      {statusLabels[status]}
    </Badge>
  );
}

export function TypeBadge({ type }: { type: ShiftType }) {
  return <Badge className={typeStyles[type]}>{type}</Badge>;
}

/** Urgent and emergency shifts say so; a normal priority needs no badge. */
export function PriorityBadge({ priority }: { priority: Priority }) {
  if (priority === 'open') return null;
  return <StatusBadge status={priority} />;
}
