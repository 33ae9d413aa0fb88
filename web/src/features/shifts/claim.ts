import { isOffline } from '../../api/client';
import type { CurrentUser, Shift } from '../../api/types';
import { OFFLINE_TITLE, type ToastInput } from '../toast/toast-queue';

/** docs/product.md §4: a claim shows at once as the user's, awaiting approval, until the server answers. */
export function claimedShift<S extends Shift>(
  shift: S,
  user: Pick<CurrentUser, 'id' | 'firstName' | 'lastName'>,
): S {
  return {
    ...shift,
    status: 'pending',
    assignedUserId: user.id,
    assignedUser: { id: user.id, firstName: user.firstName, lastName: user.lastName },
    needsApproval: true,
    approved: false,
  };
}

const CLAIM_FAILURE_MS = 8_000;

/** docs/product.md §8: why a claim failed, without the machine-readable tail some servers append. */
export function claimFailureToast(error: unknown): ToastInput {
  const raw = error instanceof Error ? error.message : '';
  const message = raw.replace(/\s*[[{].*$/s, '').trim();
  if (isOffline(error)) {
    return { title: OFFLINE_TITLE, description: raw, variant: 'destructive', durationMs: CLAIM_FAILURE_MS };
  }
  if (/scheduling conflict/i.test(message)) {
    const colon = message.indexOf(':');
    const detail = colon >= 0 ? message.slice(colon + 1).trim() : '';
    return {
      title: 'Scheduling Conflict',
      description: detail || 'You already have a shift scheduled at this time.',
      variant: 'destructive',
      durationMs: CLAIM_FAILURE_MS,
    };
  }
  return {
    title: 'Error',
    description: message || 'Failed to claim shift',
    variant: 'destructive',
    durationMs: CLAIM_FAILURE_MS,
  };
}
