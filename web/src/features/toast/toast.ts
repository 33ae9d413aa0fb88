import { atom, getDefaultStore } from 'jotai';
import { isOffline } from '../../api/client';
import {
  newToast,
  OFFLINE_TITLE,
  TOAST_REMOVE_DELAY_MS,
  type Toast,
  type ToastAction,
  type ToastInput,
  toastReducer,
} from './toast-queue';

export const toastsAtom = atom<Toast[]>([]);
const store = getDefaultStore();

/** Toasts the toaster has drawn, and who waits for one to be drawn. */
const drawn = new Set<number>();
const waitingForDraw = new Map<number, (() => void)[]>();

/** The toaster calls this once a toast is on screen. */
export function markToastDrawn(id: number): void {
  if (drawn.has(id)) return;
  drawn.add(id);
  for (const listener of waitingForDraw.get(id) ?? []) listener();
  waitingForDraw.delete(id);
}

/** Runs `listener` once the toast is on screen (the toaster's code may still be loading when it is raised). */
export function whenToastDrawn(id: number, listener: () => void): void {
  if (drawn.has(id)) listener();
  else waitingForDraw.set(id, [...(waitingForDraw.get(id) ?? []), listener]);
}

/** Whether the toaster's code failed to load, and who waits to hear of it. */
let toasterFailed = false;
const waitingForFailure: (() => void)[] = [];

/** The router calls this when the toaster's code cannot be fetched: no toast will ever be drawn. */
export function markToasterFailed(): void {
  if (toasterFailed) return;
  toasterFailed = true;
  for (const listener of waitingForFailure.splice(0)) listener();
}

/** Runs `listener` if the toaster's code cannot be fetched (at once if that is already known). */
export function whenToasterFailed(listener: () => void): void {
  if (toasterFailed) listener();
  else waitingForFailure.push(listener);
}

function dispatch(action: ToastAction) {
  store.set(toastsAtom, toastReducer(store.get(toastsAtom), action));
}

/** Show a toast (docs/product.md §8 and §9 texts and durations). */
export function toast(input: ToastInput): number {
  const shown = newToast(input);
  dispatch({ type: 'add', toast: shown });
  return shown.id;
}

export function dismissToast(id: number): void {
  dispatch({ type: 'dismiss', id });
  setTimeout(() => dispatch({ type: 'remove', id }), TOAST_REMOVE_DELAY_MS);
}

/**
 * A failed action: the server's message when it sent one, else the fallback of docs/product.md §8;
 * 'Offline' when there was no connection to send it.
 */
export function errorToast(error: unknown, fallback: string, title = 'Error', durationMs?: number): void {
  const message = error instanceof Error && error.message ? error.message : fallback;
  toast({
    title: isOffline(error) ? OFFLINE_TITLE : title,
    description: message,
    variant: 'destructive',
    durationMs,
  });
}
