import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import { Suspense, startTransition, useCallback, useEffect, useState } from 'react';
import { useLiveUpdates } from './api/live';
import type { CurrentUser } from './api/types';
import { FullPageSpinner } from './components/ui/feedback';
import { RequireAdministrator, RequireSignedIn } from './features/auth/guards';
import { sessionFailureMessage, useCurrentUser, useSessionFailure } from './features/auth/session';
import { SessionUnavailable } from './features/auth/session-unavailable';
import { SkipLink } from './features/layout/skip-link';
import { LandingPage } from './features/pages/landing-page';
import { NotFoundPage } from './features/pages/not-found-page';
import { HeaderPlace, WelcomePlaceholder } from './features/shifts/welcome';
import { markToasterFailed } from './features/toast/toast';
import { reloadAt } from './lib/reload';
import { pagePaths } from './page-paths';

// Every screen but the landing page, and the signed-in header, is fetched when first shown, so a
// visitor downloads only what their screen draws. A chunk gone after a new deploy reloads the page once.
const Header = lazyRouteComponent(() => import('./features/layout/header'), 'Header');
const AvailableShiftsScreen = lazyRouteComponent(
  () => import('./features/shifts/available-shifts-screen'),
  'AvailableShiftsScreen',
);
const MyShiftsScreen = lazyRouteComponent(
  () => import('./features/my-shifts/my-shifts-screen'),
  'MyShiftsScreen',
);
const AdminScreen = lazyRouteComponent(() => import('./features/admin/admin-screen'), 'AdminScreen');
const LoginPage = lazyRouteComponent(() => import('./features/pages/login-page'), 'LoginPage');
const Toaster = lazyRouteComponent(
  () =>
    import('./features/toast/toaster').catch((error: unknown) => {
      markToasterFailed();
      throw error;
    }),
  'Toaster',
);

/**
 * False until the first screen is painted: the task after the next frame comes after it (an
 * effect may run before).
 */
function useFirstScreenPainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

function Shell() {
  const { data: user, isLoading, error, refetch, isFetching } = useCurrentUser();
  const retry = useCallback(() => void refetch(), [refetch]);
  const failure = useSessionFailure(error, user);
  // What the first paint needs is in the main bundle; the chunks of the screen, the header and the
  // toaster are fetched once it is on screen, so they never compete with it.
  const painted = useFirstScreenPainted();
  useLiveUpdates(Boolean(user));
  // Nobody signed in is an answer (null); a failed read, with no earlier answer held, is not one.
  if (failure) {
    return (
      <div className="min-h-dvh bg-slate-50 text-slate-900">
        <SkipLink />
        <SessionUnavailable message={sessionFailureMessage(failure)} onRetry={retry} retrying={isFetching} />
      </div>
    );
  }
  if (isLoading) return <FullPageSpinner />;
  // A signed-in visitor's header and home screen are fetched together, not one after the other:
  // a component that suspends stops React rendering the ones after it.
  if (painted && user) void Header.preload?.();
  if (painted && user && window.location.pathname === pagePaths.home) void AvailableShiftsScreen.preload?.();
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900">
      <SkipLink />
      {!painted && user ? (
        <FirstScreenPlaceholder user={user} />
      ) : (
        // The header and the first screen appear together; the router keeps a screen up while the next one loads.
        <Suspense fallback={<FirstScreenPlaceholder user={user} />}>
          {user && <Header user={user} />}
          <Outlet />
        </Suspense>
      )}
      {/* Toasts raised before the toaster comes wait in the queue. */}
      {painted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </div>
  );
}

/**
 * What shows while the first screen's code comes: a spinner, and for a signed-in visitor the
 * header's place kept and, on the home screen, the greeting already drawn (§2.7).
 */
function FirstScreenPlaceholder({ user }: { user: CurrentUser | null | undefined }) {
  if (!user) return <FullPageSpinner />;
  if (window.location.pathname === pagePaths.home) return <WelcomePlaceholder firstName={user.firstName} />;
  return (
    <>
      <HeaderPlace />
      <FullPageSpinner />
    </>
  );
}

function Home() {
  const { data: user } = useCurrentUser();
  return user ? <AvailableShiftsScreen /> : <LandingPage />;
}

function Login() {
  const { data: user } = useCurrentUser();
  if (user) {
    reloadAt('/', { replace: true });
    return <FullPageSpinner />;
  }
  return <LoginPage />;
}

const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFoundPage });

const routeTree = rootRoute.addChildren([
  createRoute({ getParentRoute: () => rootRoute, path: pagePaths.home, component: Home }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: pagePaths.myShifts,
    component: () => (
      <RequireSignedIn>
        <MyShiftsScreen />
      </RequireSignedIn>
    ),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: pagePaths.admin,
    component: () => (
      <RequireSignedIn>
        <RequireAdministrator>
          <AdminScreen />
        </RequireAdministrator>
      </RequireSignedIn>
    ),
  }),
  createRoute({ getParentRoute: () => rootRoute, path: pagePaths.login, component: Login }),
]);

export const router = createRouter({ routeTree, defaultNotFoundComponent: NotFoundPage });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
