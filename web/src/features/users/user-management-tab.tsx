import { Users } from 'lucide-react';
import { useState } from 'react';
import type { ManagedUser } from '../../api/types';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/dialog';
import { EmptyState, Spinner } from '../../components/ui/feedback';
import { usePrincipal } from '../auth/session';
import { fullName } from '../people/role-badge';
import { useResidences } from '../residences/use-residences';
import { PersonRulesDialog } from '../rules/person-rules-dialog';
import { AdminPasswordDialog } from './admin-password-dialog';
import { AssignResidenceDialog } from './assign-residence-dialog';
import { CreateUserDialog } from './create-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { defaultUserFilters, useAllUsers, useDeleteUser, useManagedUsers } from './use-users';
import { userActions } from './user-actions';
import { UserFilterBar } from './user-filters';
import { type UserAction, UserRow } from './user-row';

/** Admin Dashboard tab: the user accounts an administrator manages (docs/product.md §2 User Management). */
export function UserManagementTab() {
  const viewer = usePrincipal();
  const [filters, setFilters] = useState(defaultUserFilters);
  const [open, setOpen] = useState<{ action: UserAction; user: ManagedUser } | null>(null);
  const users = useManagedUsers(filters);
  const all = useAllUsers();
  const residences = useResidences();
  const remove = useDeleteUser();
  const close = () => setOpen(null);
  // Kept after closing so the question does not lose its name while the dialog fades out.
  const [deleting, setDeleting] = useState<ManagedUser | null>(null);
  const shown = users.data ?? [];

  return (
    <Card>
      <CardHeader className="gap-3 px-3 sm:flex-row sm:items-start sm:justify-between sm:px-5">
        <div className="grid gap-1">
          <CardTitle className="text-lg">User Management</CardTitle>
          <CardDescription aria-live="polite">
            Showing {shown.length} of {all.data?.length ?? shown.length} users
          </CardDescription>
        </div>
        <CreateUserDialog />
      </CardHeader>
      <CardContent className="grid gap-4 px-3 sm:px-5">
        <UserFilterBar filters={filters} residences={residences.data ?? []} onChange={setFilters} />
        {users.isLoading ? (
          <Spinner label="Loading users" />
        ) : shown.length === 0 ? (
          <EmptyState icon={<Users />} title="No users found">
            Try another role or residence.
          </EmptyState>
        ) : (
          <ul aria-label="Users" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {shown.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                actions={userActions(viewer, user)}
                onAction={(action) => {
                  setOpen({ action, user });
                  if (action === 'delete') setDeleting(user);
                }}
              />
            ))}
          </ul>
        )}
      </CardContent>
      {open?.action === 'edit' && <EditUserDialog user={open.user} onClose={close} />}
      {open?.action === 'assignResidence' && <AssignResidenceDialog user={open.user} onClose={close} />}
      {open?.action === 'changePassword' && <AdminPasswordDialog user={open.user} onClose={close} />}
      {open?.action === 'credentials' && <PersonRulesDialog user={open.user} onClose={close} />}
      <ConfirmDialog
        open={open?.action === 'delete'}
        onOpenChange={(next) => !next && close()}
        title="Delete User Account"
        description={`Are you sure you want to delete ${deleting ? fullName(deleting) : ''}'s account? This action cannot be undone and will permanently remove all their data.`}
        confirmLabel="Delete Account"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: close })}
      />
    </Card>
  );
}
