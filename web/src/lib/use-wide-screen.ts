import { useSyncExternalStore } from 'react';

/** Tailwind's `lg` breakpoint, from which the screens lay out side panels beside their lists. */
const WIDE = '(min-width: 64rem)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the screen is wide enough for side panels (`lg`), following the window as it changes:
 * a part shown only on one side of the breakpoint is not drawn at all on the other, rather than
 * drawn and hidden, so a phone does not spend its first screen on panels it never shows.
 */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(WIDE).matches);
}
