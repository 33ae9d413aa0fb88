import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import { useLiveUpdates } from './api/live';
import { FullPageSpinner } from './components/ui/feedback';
import { AdminScreen } from './features/admin/admin-screen';
import { RequireAdministrator, RequireSignedIn } from './features/auth/guards';
import { useCurrentUser } from './features/auth/session';
import { Header } from './features/layout/header';
import { SkipLink } from './features/layout/skip-link';
import { MyShiftsScreen } from './features/my-shifts/my-shifts-screen';
import { LandingPage } from './features/pages/landing-page';
import { LoginPage } from './features/pages/login-page';
import { NotFoundPage } from './features/pages/not-found-page';
import { AvailableShiftsScreen } from './features/shifts/available-shifts-screen';
import { pagePaths } from './page-paths';

function Shell() {
  const { data: user, isLoading } = useCurrentUser();
  useLiveUpdates(Boolean(user));
  if (isLoading) return <FullPageSpinner />;
  return (
    <div className="min-h-dvh bg-slate-50 text-slate-900">
      <SkipLink />
      {user && <Header user={user} />}
      <Outlet />
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
