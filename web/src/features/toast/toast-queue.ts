/**
 * The toast queue of docs/product.md §4 and §9: at most one toast shows at a time (a new one replaces it),
 * a dismissed toast closes at once and is removed later, 5 s unless a duration is given.
 */

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const DEFAULT_TOAST_MS = 5000;

/** docs/product.md §8.3: the title of any action that could not be sent for want of a connection. */
export const OFFLINE_TITLE = 'Offline';

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
}

export interface Toast extends Required<Omit<ToastInput, 'description'>> {
  id: number;
  description?: string;
  open: boolean;
}

export type ToastAction =
  | { type: 'add'; toast: Toast }
  | { type: 'dismiss'; id: number }
  | { type: 'remove'; id: number };

export function toastReducer(toasts: readonly Toast[], action: ToastAction): Toast[] {
  switch (action.type) {
    case 'add':
      return [action.toast, ...toasts].slice(0, TOAST_LIMIT);
    case 'dismiss':
      return toasts.map((t) => (t.id === action.id ? { ...t, open: false } : t));
    case 'remove':
      return toasts.filter((t) => t.id !== action.id);
  }
}

let nextId = 1;

export function newToast(input: ToastInput): Toast {
  return {
    id: nextId++,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    durationMs: input.durationMs ?? DEFAULT_TOAST_MS,
    open: true,
  };
}
