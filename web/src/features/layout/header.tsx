import { can } from '@shiftcover/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Link, lazyRouteComponent } from '@tanstack/react-router';
import { CalendarCheck, KeyRound, LayoutDashboard, LogOut, Menu, Settings2 } from 'lucide-react';
import { Avatar, DropdownMenu } from 'radix-ui';
import { Suspense, useState } from 'react';
import { api } from '../../api/client';
import { forgetOfflineData } from '../../api/offline';
import type { CurrentUser } from '../../api/types';
import { Button } from '../../components/ui/button';
import { Sheet } from '../../components/ui/sheet';
import { cn } from '../../lib/cn';
import { principalOf } from '../auth/session';
import { fullName, initials, RoleBadge } from '../people/role-badge';
import { NotificationBell } from './notification-bell';

/**
 * Log out, then the root path; a failed logout is logged and the user still goes to the root. The
 * shifts kept for offline reading go either way: the next person on this device must not see them.
 */
async function logOut() {
  try {
    await api.post('/api/auth/logout');
  } catch (error) {
    console.error('Logout failed', error);
  }
  await forgetOfflineData();
  window.location.assign('/');
}

// The form and its rules are fetched when the dialog is first opened, not with every first screen.
const ChangePasswordDialog = lazyRouteComponent(
  () => import('../auth/change-password-dialog'),
  'ChangePasswordDialog',
);

const navLink =
  'inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-teal-600 [&.active]:bg-teal-50 [&.active]:text-teal-800';

export function Header({ user }: { user: CurrentUser }) {
  const [drawer, setDrawer] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const admin = can(principalOf(user), 'reachAdmin');
  const queryClient = useQueryClient();

  const links = (mobile: boolean) => (
    <>
      <Link
        to="/"
        className={navLink}
        activeOptions={{ exact: true }}
        onClick={() => setDrawer(false)}
        // The drawer opens on its first link, never on Log out.
        data-autofocus={mobile || undefined}
      >
        <LayoutDashboard aria-hidden className="size-4" /> Dashboard
      </Link>
      <Link to="/my-shifts" className={navLink} onClick={() => setDrawer(false)}>
        <CalendarCheck aria-hidden className="size-4" /> My Shifts
      </Link>
      {admin && (
        <Link to="/admin" className={navLink} onClick={() => setDrawer(false)}>
          <Settings2 aria-hidden className="size-4" /> {mobile ? 'Admin Panel' : 'Operations'}
        </Link>
      )}
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4">
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-label="Open menu"
          onClick={() => setDrawer(true)}
        >
          <Menu className="size-5!" aria-hidden />
        </Button>
        <Link to="/" className="flex items-center gap-2 font-semibold text-slate-900">
          <span className="grid size-8 place-items-center rounded-lg bg-teal-700 text-white" aria-hidden>
            <CalendarCheck className="size-4" />
          </span>
          <span className="sr-only sm:not-sr-only">Shift Coverage</span>
        </Link>
        <nav aria-label="Main" className="ml-4 hidden items-center gap-1 md:flex">
          {links(false)}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <NotificationBell />
          {/* Not modal: a modal menu hides the page with aria-hidden while its controls stay focusable. */}
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger asChild>
              <button
                type="button"
                className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600"
              >
                <Avatar.Root className="grid size-9 place-items-center overflow-hidden rounded-full bg-teal-100 text-sm font-semibold text-teal-900">
                  {user.profileImageUrl && (
                    <Avatar.Image src={user.profileImageUrl} alt="" className="size-full object-cover" />
                  )}
                  <Avatar.Fallback aria-hidden>{initials(user)}</Avatar.Fallback>
                </Avatar.Root>
                <span className="sr-only">Account menu for {fullName(user)}</span>
              </button>
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="end"
                sideOffset={8}
                className="z-50 w-64 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
              >
                <div className="grid gap-1 px-3 py-2">
                  <p className="font-medium text-slate-900">{fullName(user)}</p>
                  {user.email && <p className="truncate text-sm text-slate-600">{user.email}</p>}
                  <div>
                    <RoleBadge role={user.role} />
                  </div>
                </div>
                <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
                <DropdownMenu.Item className={menuItem} onSelect={() => setChangingPassword(true)}>
                  <KeyRound className="size-4" aria-hidden /> Change Password
                </DropdownMenu.Item>
                <DropdownMenu.Item
                  className={menuItem}
                  onSelect={() => {
                    queryClient.clear();
                    void logOut();
                  }}
                >
                  <LogOut className="size-4" aria-hidden /> Log out
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
      </div>
      <Sheet open={drawer} onOpenChange={setDrawer} title="Menu">
        <div className="flex items-center gap-3 rounded-lg bg-slate-50 p-3">
          <div
            className="grid size-10 place-items-center rounded-full bg-teal-100 font-semibold text-teal-900"
            aria-hidden
          >
            {initials(user)}
          </div>
          <div className="min-w-0">
            <p className="truncate font-medium">{fullName(user)}</p>
            <RoleBadge role={user.role} />
          </div>
        </div>
        <nav aria-label="Mobile" className="grid gap-1">
          {links(true)}
        </nav>
        <Button variant="outline" className="mt-auto" onClick={() => void logOut()}>
          <LogOut aria-hidden /> Log out
        </Button>
      </Sheet>
      {changingPassword && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open onOpenChange={setChangingPassword} />
        </Suspense>
      )}
    </header>
  );
}

const menuItem = cn(
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none select-none',
  'data-[highlighted]:bg-slate-100 data-[highlighted]:outline-solid data-[highlighted]:outline-2 data-[highlighted]:-outline-offset-2 data-[highlighted]:outline-teal-600',
);
