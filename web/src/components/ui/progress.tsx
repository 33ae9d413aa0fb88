import { cn } from '../../lib/cn';

/** A labelled bar for a 0–100 value; the label is what screen readers announce. */
export function Progress({ value, label, className }: { value: number; label: string; className?: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={cn('h-2.5 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div className="h-full rounded-full bg-green-600 transition-[width]" style={{ width: `${value}%` }} />
    </div>
  );
}
