import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import { Suspense, useEffect, useState } from 'react';
import { useLiveUpdates } from './api/live';
import { FullPageSpinner } from './components/ui/feedback';
import { RequireAdministrator, RequireSignedIn } from './features/auth/guards';
import { useCurrentUser } from './features/auth/session';
import { SkipLink } from './features/layout/skip-link';
import { LandingPage } from './features/pages/landing-page';
import { NotFoundPage } from './features/pages/not-found-page';
import { markToasterFailed } from './features/toast/toast';
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

/** The toaster, fetched once the first screen is drawn, not before it; toasts raised meanwhile wait in the queue. */
function ToasterAfterFirstScreen() {
  const [show, setShow] = useState(false);
  // The task after the next frame comes after the first screen is painted (an effect may run
  // before): the toaster's chunk never delays it.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShow(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return show ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

function Shell() {
  const { data: user, isLoading } = useCurrentUser();
  useLiveUpdates(Boolean(user));
  // A signed-in visitor's header and home screen are fetched together, not one after the other:
  // a component that suspends stops React rendering the ones after it.
  if (user) void Header.preload?.();
  if (user && window.location.pathname === pagePaths.home) void AvailableShiftsScreen.preload?.();
  if (isLoading) return <FullPageSpinner />;
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900">
      <SkipLink />
      {/* The header and the first screen appear together; the router keeps a screen up while the next one loads. */}
      <Suspense fallback={<FullPageSpinner />}>
        {user && <Header user={user} />}
        <Outlet />
      </Suspense>
      <ToasterAfterFirstScreen />
    </div>
  );
}

function Home() {
  const { data: user } = useCurrentUser();
  return user ? <AvailableShiftsScreen /> : <LandingPage />;
}

function Login() {
  const { data: user } = useCurrentUser();
  if (user) {
    window.location.replace('/');
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
