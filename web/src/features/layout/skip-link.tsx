import { MAIN_ID } from '../../lib/focus';

/**
 * "Skip to main content": the first stop of the Tab key on every screen, hidden until focused
 * (WCAG 2.4.1). Moves focus itself rather than changing the URL's hash, which the router owns.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className="sr-only z-[60] rounded-md bg-white px-4 py-2 text-sm font-medium text-teal-800 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      onClick={(event) => {
        const main = document.getElementById(MAIN_ID);
        if (!main) return;
        event.preventDefault();
        main.focus();
        main.scrollIntoView();
      }}
    >
      Skip to main content
    </a>
  );
}
