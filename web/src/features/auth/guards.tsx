import { can, refusalFor } from '@shiftcover/domain';
import { ShieldAlert } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { EmptyState, FullPageSpinner } from '../../components/ui/feedback';
import { MAIN_ID } from '../../lib/focus';
import { toast, whenToastDrawn, whenToasterFailed } from '../toast/toast';
import { principalOf, useCurrentUser } from './session';

export const LOGIN_REDIRECT_DELAY_MS = 500;

/**
 * The longest the redirect waits for the toaster's code when its fetch neither arrives nor fails (a
 * stalled connection); a fetch that fails sends the visitor on at once, without the toast.
 */
const TOAST_WAIT_LIMIT_MS = 20_000;

/**
 * docs/product.md §2: an Unauthorized toast, then the login entry point 0.5 s after the toast is on
 * screen (the toaster loads after the first screen, so it may not be there yet when this is called;
 * on a slow connection or a busy device that can take seconds, and the toast is still shown first).
 */
export function sendToLogin(): void {
  const id = toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  let gone = false;
  const go = () => {
    if (gone) return;
    gone = true;
    window.location.assign('/api/login');
  };
  whenToastDrawn(id, () => setTimeout(go, LOGIN_REDIRECT_DELAY_MS));
  whenToasterFailed(go);
  setTimeout(go, TOAST_WAIT_LIMIT_MS);
}

export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { data: user, isLoading } = useCurrentUser();
  useEffect(() => {
    if (!isLoading && !user) sendToLogin();
  }, [isLoading, user]);
  if (isLoading || !user) return <FullPageSpinner />;
  return children;
}

/** /admin: administrators only; anyone else sees Access Denied and a toast. */
export function RequireAdministrator({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  const allowed = user ? can(principalOf(user), 'reachAdmin') : false;
  useEffect(() => {
    if (user && !allowed) {
      toast({
        title: 'Access Denied',
        description: refusalFor('reachAdmin'),
        variant: 'destructive',
      });
    }
  }, [user, allowed]);
  if (!user) return <FullPageSpinner />;
  if (!allowed) {
    return (
      <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-xl px-4 py-16 outline-none">
        <EmptyState icon={<ShieldAlert />} title="Access Denied">
          {refusalFor('reachAdmin')}
        </EmptyState>
      </main>
    );
  }
  return children;
}
