import { can, refusalFor } from '@shiftcover/domain';
import { ShieldAlert } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { EmptyState, FullPageSpinner } from '../../components/ui/feedback';
import { MAIN_ID } from '../../lib/focus';
import { toast } from '../toast/toast';
import { principalOf, useCurrentUser } from './session';

export const LOGIN_REDIRECT_DELAY_MS = 500;

/** docs/product.md §2: an Unauthorized toast, then the login entry point after 0.5 s. */
export function sendToLogin(): void {
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
  setTimeout(() => window.location.assign('/api/login'), LOGIN_REDIRECT_DELAY_MS);
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
