import { easternDate } from '@shiftcover/domain';
import { BadgeCheck, Building2, KeyRound, Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ManagedUser } from '../../api/types';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { fullName, RoleBadge, SuperAdminBadge } from '../people/role-badge';
import type { UserActions } from './user-actions';

export type UserAction = 'edit' | 'assignResidence' | 'changePassword' | 'credentials' | 'delete';

function Fact({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-800 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/** One account: a stacked card on a phone; on wide screens the person beside their facts and actions. */
export function UserRow({
  user,
  actions,
  onAction,
}: {
  user: ManagedUser;
  actions: UserActions;
  onAction(action: UserAction): void;
}) {
  const name = fullName(user);
  const residence =
    user.assignedResidenceName ??
    (user.assignedResidenceId ? `ID: ${user.assignedResidenceId}` : 'None assigned');
  return (
    <li className="grid gap-3 p-4 lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-x-6">
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-1.5">
          <RoleBadge role={user.role} />
          {user.superAdmin && <SuperAdminBadge />}
        </div>
        <p className="truncate font-medium text-slate-900">{name}</p>
        <p className="truncate text-sm text-slate-600">{user.email ?? 'No e-mail'}</p>
      </div>
      <div className="grid min-w-0 gap-3">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-[7rem_minmax(0,17rem)_minmax(0,1fr)]">
          <Fact label="Created">{easternDate(user.createdAt)}</Fact>
          {/* On a phone the e-mail gets a line of its own, after the short facts. */}
          <Fact label="Notification e-mail" className="order-last col-span-2 sm:order-none sm:col-span-1">
            {user.notificationEmail ?? 'Not set'}
          </Fact>
          {user.role === 'admin' && <Fact label="Residence">{residence}</Fact>}
        </dl>
        <div className="flex flex-wrap gap-2">
          {actions.edit && (
            <Button variant="outline" size="sm" aria-label={`Edit ${name}`} onClick={() => onAction('edit')}>
              <Pencil aria-hidden />
              Edit
            </Button>
          )}
          {actions.assignResidence && (
            <Button
              variant="outline"
              size="sm"
              aria-label={`Assign Residence to ${name}`}
              onClick={() => onAction('assignResidence')}
            >
              <Building2 aria-hidden />
              Assign Residence
            </Button>
          )}
          {actions.changePassword && (
            <Button
              variant="outline"
              size="sm"
              aria-label={`Change Password for ${name}`}
              onClick={() => onAction('changePassword')}
            >
              <KeyRound aria-hidden />
              Change Password
            </Button>
          )}
          {actions.credentials && (
            <Button
              variant="outline"
              size="sm"
              aria-label={`Credentials and Time Off of ${name}`}
              onClick={() => onAction('credentials')}
            >
              <BadgeCheck aria-hidden />
              Credentials & Time Off
            </Button>
          )}
          {actions.delete && (
            <Button
              variant="outline"
              size="sm"
              className="border-red-200 text-red-700 hover:bg-red-50"
              aria-label={`Delete ${name}`}
              onClick={() => onAction('delete')}
            >
              <Trash2 aria-hidden />
              Delete
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}
