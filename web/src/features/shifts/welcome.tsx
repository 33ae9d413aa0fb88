import type { ReactNode } from 'react';
import { Spinner } from '../../components/ui/feedback';
import { MAIN_ID } from '../../lib/focus';

/** The Available Shifts screen's grid: filters and stats beside the list from `lg` on. */
export const SCREEN_GRID =
  'mx-auto grid max-w-7xl gap-6 px-4 py-6 outline-none lg:grid-cols-[18rem_minmax(0,1fr)]';

/** The place and height of the signed-in header (its `h-16` and bottom border), kept while it loads. */
export function HeaderPlace() {
  return <div aria-hidden className="h-[65px] border-b border-slate-200 bg-white" />;
}

/** The welcome line of docs/product.md §2.7, with what follows it on the same line (the role badge). */
export function WelcomeLine({ firstName, children }: { firstName: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">Welcome back, {firstName}!</h1>
      {children}
    </div>
  );
}

/**
 * Available Shifts while its code is on its way, drawn with the main bundle: the header's place,
 * then the welcome line where the screen draws it and a spinner under it. The user is known before
 * the screen's code has come, so the greeting does not wait for it, and the screen takes over
 * without moving it.
 */
export function WelcomePlaceholder({ firstName }: { firstName: string }) {
  return (
    <>
      <HeaderPlace />
      <main id={MAIN_ID} tabIndex={-1} className={SCREEN_GRID}>
        <div className="hidden lg:block" />
        <div className="grid min-w-0 content-start gap-5">
          <WelcomeLine firstName={firstName} />
          <Spinner label="Loading shifts" />
        </div>
      </main>
    </>
  );
}
