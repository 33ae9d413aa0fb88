import { X } from 'lucide-react';
import { AlertDialog as AlertPrimitive, Dialog as DialogPrimitive } from 'radix-ui';
import { type ComponentProps, type ReactNode, useRef } from 'react';
import { cn } from '../../lib/cn';
import { MAIN_ID, openerOf, successorOf } from '../../lib/focus';
import { Button } from './button';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

const overlay = 'fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[1px]';
const panel =
  'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border border-slate-200 bg-white p-6 shadow-xl focus:outline-none';

/**
 * Focus into and out of a dialog or sheet opened from state rather than a Radix trigger. It opens
 * on the element marked `data-autofocus`, else on its first control (Radix), and on close gives
 * focus back to whatever opened it: the button pressed, or the button of the menu whose item was
 * chosen. If that opener has gone meanwhile (a deleted shift's card), the control after it.
 */
export function useDialogFocus() {
  const back = useRef<{ opener: HTMLElement | null; successor: () => HTMLElement | null }>(null);
  return {
    onOpenAutoFocus(event: Event) {
      const opener = openerOf(document.activeElement);
      back.current = {
        opener,
        successor: opener ? successorOf(opener) : () => document.getElementById(MAIN_ID),
      };
      const preferred = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>(
        '[data-autofocus]',
      );
      if (preferred) {
        event.preventDefault();
        preferred.focus();
      }
    },
    onCloseAutoFocus(event: Event) {
      event.preventDefault();
      const { opener, successor } = back.current ?? { opener: null, successor: () => null };
      (opener?.isConnected ? opener : successor())?.focus();
    },
  };
}

/** A modal dialog: focus is trapped inside, starts on its first field and returns to the opener. */
export function DialogContent({
  className,
  children,
  dismissOnOutsideClick = true,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { dismissOnOutsideClick?: boolean }) {
  const focus = useDialogFocus();
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlay} />
      <DialogPrimitive.Content
        className={cn(panel, className)}
        onInteractOutside={dismissOnOutsideClick ? undefined : (event) => event.preventDefault()}
        {...focus}
        {...props}
      >
        {children}
        <CornerClose iconClassName="size-4" />
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** The × in the top right corner of a dialog or sheet. */
export function CornerClose({ iconClassName }: { iconClassName: string }) {
  return (
    <DialogPrimitive.Close
      aria-label="Close"
      className="absolute top-4 right-4 rounded-md p-1 text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-teal-600"
    >
      <X className={iconClassName} aria-hidden />
    </DialogPrimitive.Close>
  );
}

export function DialogHeader({ title, description }: { title: ReactNode; description?: ReactNode }) {
  return (
    <div className="grid gap-1.5 pr-6">
      <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
      {description ? (
        <DialogPrimitive.Description className="text-sm text-slate-600">
          {description}
        </DialogPrimitive.Description>
      ) : (
        <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
      )}
    </div>
  );
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />
  );
}

/**
 * Cancel and submit of a form in a dialog. While `pending`, submit is disabled and says what is
 * happening; `disabled` holds it back for other reasons.
 */
export function DialogFormFooter({
  onCancel,
  submitLabel,
  pending = false,
  pendingLabel,
  disabled = false,
}: {
  onCancel(): void;
  submitLabel: string;
  disabled?: boolean;
} & ({ pending: boolean; pendingLabel: string } | { pending?: undefined; pendingLabel?: undefined })) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={disabled || pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </DialogFooter>
  );
}

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  busy,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const focus = useDialogFocus();
  return (
    <AlertPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertPrimitive.Portal>
        <AlertPrimitive.Overlay className={overlay} />
        {/* Radix starts on Cancel, never on the destructive button. */}
        <AlertPrimitive.Content className={panel} {...focus}>
          <AlertPrimitive.Title className="text-lg font-semibold text-slate-900">
            {title}
          </AlertPrimitive.Title>
          <AlertPrimitive.Description className="text-sm text-slate-600">
            {description}
          </AlertPrimitive.Description>
          <DialogFooter>
            <AlertPrimitive.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertPrimitive.Cancel>
            <Button variant="destructive" disabled={busy} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </DialogFooter>
        </AlertPrimitive.Content>
      </AlertPrimitive.Portal>
    </AlertPrimitive.Root>
  );
}
