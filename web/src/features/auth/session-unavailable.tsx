import { CloudOff } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../../components/ui/button';
import { MessagePage } from '../../components/ui/feedback';

/**
 * docs/product.md §2.1: who is signed in could not be read (no connection, and no answer kept on
 * this device; or the server out of reach). Not a signed-out visitor, so no landing page and no
 * trip to the login entry point: the reason, a way to try again, and a new read once the
 * connection returns.
 */
export function SessionUnavailable({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry: () => void;
  /** A read is on its way (the button's or the returning connection's). */
  retrying: boolean;
}) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return (
    <MessagePage icon={<CloudOff className="size-7 text-slate-500" aria-hidden />} title="Shift Coverage">
      <p role="alert" className="mt-4 text-sm text-slate-700">
        {message}
      </p>
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
