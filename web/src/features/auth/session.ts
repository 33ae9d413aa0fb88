import type { Principal } from '@shiftcover/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api } from '../../api/client';
import { keys } from '../../api/keys';
import type { CurrentUser } from '../../api/types';

/** Who is signed in: null for nobody (the call's 401). */
export const currentUserQuery = queryOptions({
  queryKey: keys.currentUser,
  queryFn: () => api.get<CurrentUser | null>('/api/auth/user', { nullOn401: true }),
});

/** docs/product.md §4: signed in whenever the current-user call returns data; not retried on failure. */
export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** The signed-in user, on screens that are only shown when someone is signed in. */
export function useSignedInUser(): CurrentUser {
  const { data } = useCurrentUser();
  if (!data) throw new Error('This screen is only shown to a signed-in user');
  return data;
}

export function principalOf(user: CurrentUser): Principal {
  return { userId: user.id, role: user.role, superAdmin: user.superAdmin };
}

export function usePrincipal(): Principal {
  return principalOf(useSignedInUser());
}

/**
 * Why who is signed in could not be read (docs/product.md §2.1): the offline message, the server's
 * own answer, or, when the device is online but the request never reached an answer, that the
 * server cannot be reached.
 */
export function sessionFailureMessage(error: Error): string {
  return error instanceof ApiError ? error.message : 'The server cannot be reached.';
}

/**
 * Why the last read of who is signed in failed, held while the next read is on its way (a query
 * that holds no answer goes back to pending when it is read again) and dropped once an answer
 * comes: so the page that says so stays, with the keyboard's focus on it, while it tries again.
 */
export function useSessionFailure(error: Error | null, user: CurrentUser | null | undefined): Error | null {
  const [held, setHeld] = useState<Error | null>(null);
  if (error && error !== held) setHeld(error);
  else if (!error && user !== undefined && held) setHeld(null);
  return user === undefined ? (error ?? held) : null;
}
