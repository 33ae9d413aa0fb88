/**
 * Where keyboard focus goes when the control that had it goes away: a dialog's opener removed
 * while the dialog was open (a deleted shift's card), or a button that vanishes once pressed
 * (Claim Shift, Approve). WCAG 2.4.3: focus must never fall back to the page body.
 */

/** The id every screen gives its `<main>`: where the skip link leads and focus goes when nothing else fits. */
export const MAIN_ID = 'main';

const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

const usable = (element: HTMLElement) =>
  element.isConnected && !element.matches(':disabled') && element.getClientRects().length > 0;

/** True when nothing useful has focus: the body, or an element no longer on the page. */
export function focusLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

/**
 * A snapshot of the controls around `from`, taken now; the returned function gives the first of
 * them still usable later: the next one after `from` in tab order (the next card's button), else
 * the nearest before it, else the main region.
 */
export function successorOf(from: HTMLElement): () => HTMLElement | null {
  const scope = from.closest<HTMLElement>('main') ?? document.getElementById(MAIN_ID);
  const all = scope ? [...scope.querySelectorAll<HTMLElement>(TABBABLE)] : [];
  const at = all.indexOf(from);
  const around = at < 0 ? [] : [...all.slice(at + 1), ...all.slice(0, at).reverse()];
  return () => around.find(usable) ?? scope;
}

/**
 * Call when `from` is pressed for an action that may remove it. For the next few seconds (the
 * round trip to the server), once `from` is gone and focus has fallen to the body, focus moves to
 * `from`'s successor. Watching ends as soon as focus is anywhere else (a dialog opened, the user
 * moved on).
 */
export function keepFocusAfter(from: HTMLElement, watchMs = 10_000): void {
  const successor = successorOf(from);
  const until = Date.now() + watchMs;
  const timer = setInterval(() => {
    const lost = focusLost();
    if (lost && !from.isConnected) successor()?.focus();
    if ((!lost && document.activeElement !== from) || !from.isConnected || Date.now() > until) {
      clearInterval(timer);
    }
  }, 50);
}

/** The element a dialog returns focus to: an item of a menu stands for the button that opened the menu. */
export function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest('[role="menu"]');
  if (menu?.id) return document.querySelector<HTMLElement>(`[aria-controls="${menu.id}"]`);
  return active;
}

/**
 * Every button pressed on a screen is watched by `keepFocusAfter`, so any action that removes its
 * own button (Claim Shift, Approve, Deny, Accept, Request Drop) leaves focus on the next control.
 */
export function keepFocusOnScreen(root: Document = document): void {
  root.addEventListener(
    'click',
    (event) => {
      const button =
        event.target instanceof Element ? event.target.closest<HTMLElement>('main button') : null;
      if (button) keepFocusAfter(button);
    },
    true,
  );
}
