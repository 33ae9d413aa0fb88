import { clsx } from 'clsx';
import { Loader2 } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { MAIN_ID } from '../../lib/focus';

/**
 * `className` adds classes, never replaces these: the first screen draws a spinner before anything
 * else, and merging classes (`cn`) first costs a phone a few dozen milliseconds of setting up.
 */
export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={clsx('flex items-center justify-center p-6 text-slate-500', className)}>
      <Loader2 className="size-6 animate-spin" aria-hidden />
      <span className="sr-only">{label}</span>
    </div>
  );
}

export function FullPageSpinner() {
  return <Spinner className="min-h-dvh" />;
}

/** A calm, centred message for lists with nothing in them. */
export function EmptyState({
  icon,
  title,
  children,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      {icon && <div className="text-slate-400 [&_svg]:size-8">{icon}</div>}
      <p className="font-medium text-slate-800">{title}</p>
      {children && <div className="text-sm text-slate-600">{children}</div>}
    </div>
  );
}

export function Alert({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div role="alert" className={cn('flex gap-3 rounded-lg border p-4 text-sm', className)} {...props} />
  );
}

/** A page that is one message in a card: its heading with an icon, and what follows. */
export function MessagePage({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <main
      id={MAIN_ID}
      tabIndex={-1}
      className="outline-none flex min-h-[60dvh] items-center justify-center px-4"
    >
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
          {icon} {title}
        </h1>
        {children}
      </div>
    </main>
  );
}
