import { CloudOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { MessagePage } from '../../components/ui/feedback';

/**
 * How long the page waits, after each read that failed, before it reads again by itself while the
 * device is online: soon at first, then no more than twice a minute for as long as it is shown.
 */
export const SESSION_RETRY_DELAYS_MS = [3_000, 6_000, 12_000, 30_000] as const;

export function sessionRetryDelay(attempts: number): number {
  return SESSION_RETRY_DELAYS_MS[attempts] ?? SESSION_RETRY_DELAYS_MS[3];
}

/**
 * docs/product.md §2.1: who is signed in could not be read (no connection, and no answer kept on
 * this device; or the server out of reach). Not a signed-out visitor, so no landing page and no
 * trip to the login entry point: the reason, a way to try again, and new reads by themselves, at
 * once when the connection returns and on a widening interval while the device is online (the
 * server may come back, or the first read after the connection's return may still find none).
 */
export function SessionUnavailable({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry: () => void;
  /** A read is on its way (the button's, the returning connection's or the interval's). */
  retrying: boolean;
}) {
  const [attempts, setAttempts] = useState(0);
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  useEffect(() => {
    // Each read that ends without an answer sets the next one; offline, the connection's return
    // reads again instead.
    if (retrying) return;
    const timer = window.setTimeout(() => {
      if (!navigator.onLine) return;
      setAttempts((count) => count + 1);
      onRetry();
    }, sessionRetryDelay(attempts));
    return () => window.clearTimeout(timer);
  }, [attempts, retrying, onRetry]);
  return (
    <MessagePage icon={<CloudOff className="size-7 text-slate-500" aria-hidden />} title="Shift Coverage">
      <p role="alert" className="mt-4 text-sm text-slate-700">
        {message}
      </p>
      <p className="mt-2 text-sm text-slate-600">This page tries again by itself.</p>
      {/* Not disabled while it tries: a disabled button would drop the keyboard's focus. */}
      <Button
        className="mt-4 aria-disabled:opacity-70"
        aria-disabled={retrying || undefined}
        onClick={retrying ? undefined : onRetry}
      >
        {retrying ? 'Trying again...' : 'Try Again'}
      </Button>
    </MessagePage>
  );
}
