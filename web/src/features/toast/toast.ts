import { atom, getDefaultStore } from 'jotai';
import {
  newToast,
  TOAST_REMOVE_DELAY_MS,
  type Toast,
  type ToastAction,
  type ToastInput,
  toastReducer,
} from './toast-queue';

export const toastsAtom = atom<Toast[]>([]);
const store = getDefaultStore();

function dispatch(action: ToastAction) {
  store.set(toastsAtom, toastReducer(store.get(toastsAtom), action));
}

/** Show a toast (docs/product.md §8 and §9 texts and durations). */
export function toast(input: ToastInput): void {
  dispatch({ type: 'add', toast: newToast(input) });
}

export function dismissToast(id: number): void {
  dispatch({ type: 'dismiss', id });
  setTimeout(() => dispatch({ type: 'remove', id }), TOAST_REMOVE_DELAY_MS);
}

/** A failed action: the server's message when it sent one, else the fallback of docs/product.md §8. */
export function errorToast(error: unknown, fallback: string, title = 'Error', durationMs?: number): void {
  const message = error instanceof Error && error.message ? error.message : fallback;
  toast({ title, description: message, variant: 'destructive', durationMs });
}
