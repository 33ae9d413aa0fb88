import { describe, expect, it } from 'vitest';
import { DEFAULT_TOAST_MS, newToast, toastReducer } from './toast-queue';

describe('the toast queue', () => {
  it('shows one toast at a time: a new toast replaces the one showing', () => {
    const first = newToast({ title: 'Shift claimed successfully' });
    const second = newToast({ title: 'Error', description: 'Failed to claim shift', variant: 'destructive' });
    const shown = toastReducer(toastReducer([], { type: 'add', toast: first }), {
      type: 'add',
      toast: second,
    });
    expect(shown.map((t) => t.title)).toEqual(['Error']);
  });

  it('lasts 5 s unless told otherwise', () => {
    expect(newToast({ title: 'Done' }).durationMs).toBe(DEFAULT_TOAST_MS);
    expect(newToast({ title: 'Scheduling Conflict', durationMs: 8000 }).durationMs).toBe(8000);
  });

  it('closes a dismissed toast at once and removes it only when asked', () => {
    const toast = newToast({ title: 'Password changed' });
    const dismissed = toastReducer([toast], { type: 'dismiss', id: toast.id });
    expect(dismissed).toEqual([{ ...toast, open: false }]);
    expect(toastReducer(dismissed, { type: 'remove', id: toast.id })).toEqual([]);
  });
});
