import { isOffline } from '../../api/client';
import { OFFLINE_TITLE, type ToastInput } from '../toast/toast-queue';

/** docs/product.md §8: why a drop request was refused or not sent, with the title and display time for each case. */
export function dropFailureToast(error: unknown): ToastInput {
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (isOffline(error)) {
    return { title: OFFLINE_TITLE, description: message, variant: 'destructive', durationMs: 5_000 };
  }
  if (code === 'insufficient_notice' || /4 hours|notice/i.test(message)) {
    return { title: 'Insufficient Notice', description: message, variant: 'destructive', durationMs: 10_000 };
  }
  if (code === 'shift_started' || /already started|has started/i.test(message)) {
    return {
      title: 'Shift Already Started',
      description: message,
      variant: 'destructive',
      durationMs: 8_000,
    };
  }
  return {
    title: 'Error',
    description: message || 'Failed to request shift drop',
    variant: 'destructive',
    durationMs: 5_000,
  };
}
