import { assignableRoles, can, canChangeRole, editUserSchema, type Role } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { ManagedUser } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { fieldErrors } from '../../lib/form-errors';
import { usePrincipal } from '../auth/session';
import { fullName } from '../people/role-badge';
import { useUpdateUser } from './use-users';
import { targetOf } from './user-actions';
import { AccessFields, type AccessValues, PersonFields, type PersonValues } from './user-fields';

type Values = PersonValues & AccessValues;

function valuesOf(user: ManagedUser): Values {
  return {
    username: user.username ?? '',
    email: user.email ?? '',
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    superAdmin: user.superAdmin,
    emailNotificationsEnabled: user.emailNotificationsEnabled,
  };
}

/** docs/product.md §5 "Edit user": the role is offered only where docs/product.md §6 lets the viewer change it. */
export function EditUserDialog({ user, onClose }: { user: ManagedUser; onClose(): void }) {
  const viewer = usePrincipal();
  const [values, setValues] = useState(() => valuesOf(user));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateUser(user.id);
  const target = targetOf(user);
  const roles = assignableRoles(viewer).filter((role) =>
    canChangeRole(viewer, target, { role, superAdmin: role === 'admin' && user.superAdmin }),
  );
  const roleFixed = !roles.includes(user.role) || roles.length < 2;
  const superAdminSettable =
    can(viewer, 'changeUserRoles') && canChangeRole(viewer, target, { role: 'admin', superAdmin: true });

  function change(next: Partial<Values>) {
    setValues((v) => ({ ...v, ...next }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([field]) => !(field in next))));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = editUserSchema.safeParse({
      ...values,
      role: roleFixed ? undefined : values.role,
      superAdmin: superAdminSettable ? values.superAdmin : undefined,
      emailNotificationsEnabled: viewer.role === 'developer' ? values.emailNotificationsEnabled : undefined,
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    update.mutate(parsed.data, { onSuccess: onClose });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent dismissOnOutsideClick={false}>
        <DialogHeader title="Edit User Account" description={`Update ${fullName(user)}'s details.`} />
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <PersonFields
            values={values}
            errors={errors}
            onChange={(field, value) => change({ [field]: value })}
          />
          <AccessFields
            values={values}
            roles={roleFixed ? ([user.role] as Role[]) : roles}
            showSuperAdmin={superAdminSettable}
            showNotifications={viewer.role === 'developer'}
            onChange={change}
          />
          <DialogFormFooter
            onCancel={onClose}
            submitLabel="Save Changes"
            pending={update.isPending}
            pendingLabel="Saving..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
