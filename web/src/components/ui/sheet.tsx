import { Dialog as DialogPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { CornerClose, useDialogFocus } from './dialog';

/** A panel sliding in from the side (mobile navigation, filters on small screens); focus as in dialogs. */
export function Sheet({
  open,
  onOpenChange,
  side = 'left',
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side?: 'left' | 'right';
  title: string;
  children: ReactNode;
}) {
  const focus = useDialogFocus();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
        <DialogPrimitive.Content
          className={cn(
            'fixed inset-y-0 z-50 flex w-[85vw] max-w-sm flex-col gap-4 overflow-y-auto bg-white p-5 shadow-xl focus:outline-none',
            side === 'left' ? 'left-0' : 'right-0',
          )}
          {...focus}
        >
          <DialogPrimitive.Title className="pr-8 text-lg font-semibold text-slate-900">
            {title}
          </DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
          {children}
          <CornerClose iconClassName="size-5" />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
