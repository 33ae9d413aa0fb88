import { useAtomValue } from 'jotai';
import { X } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { useEffect } from 'react';
import { cn } from '../../lib/cn';
import { dismissToast, markToastDrawn, toastsAtom } from './toast';

const variants = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-950',
  destructive: 'border-red-300 bg-red-50 text-red-950',
};

/** The toast area: F8 focuses it, a swipe of 50 px to the right dismisses (docs/product.md §9). */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <ToastPrimitive.Provider swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.durationMs}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg',
            'data-[state=open]:animate-in data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)]',
            variants[t.variant],
          )}
        >
          <div className="grid gap-1">
            <OnScreen id={t.id} />
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {t.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-teal-600"
          >
            <X className="size-4" aria-hidden />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none md:max-w-[500px]" />
    </ToastPrimitive.Provider>
  );
}

/**
 * Marks its toast drawn once the browser has painted the toast's own content. Radix draws a toast
 * into its viewport, which is not there on the toaster's first draw, so the content (and this)
 * comes a draw later than the toaster; and an effect may run before the paint that shows its draw,
 * so the mark waits for the frame after it.
 */
function OnScreen({ id }: { id: number }) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => markToastDrawn(id), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [id]);
  return null;
}
