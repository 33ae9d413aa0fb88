/**
 * docs/product.md §2: a sign-in ends with the page loaded again at the root. Two parts of the page
 * can ask for it at once (the sign-in form's answer, and the login route seeing a user that a read
 * brought back meanwhile); the second request would cancel the load the first began, so only the
 * first is made. A page restored from the back-forward cache may leave again.
 */
let leaving = false;

window.addEventListener('pageshow', (event) => {
  if (event.persisted) leaving = false;
});

/** Loads `path` afresh; `replace` keeps the page being left out of the history. */
export function reloadAt(path: string, { replace = false } = {}): void {
  if (leaving) return;
  leaving = true;
  if (replace) window.location.replace(path);
  else window.location.assign(path);
}
