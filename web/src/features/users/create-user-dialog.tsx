import { assignableRoles, can, canCreateUser, createUserSchema } from '@shiftcover/domain';
import { UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogFormFooter,
  DialogHeader,
  DialogTrigger,
} from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/form';
import { fieldErrors } from '../../lib/form-errors';
import { usePrincipal } from '../auth/session';
import { useCreateUser } from './use-users';
import { AccessFields, type AccessValues, PersonFields, type PersonValues } from './user-fields';

type Values = PersonValues & AccessValues & { password: string; confirmPassword: string };

const empty: Values = {
  username: '',
  email: '',
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  role: 'staff',
  superAdmin: false,
  emailNotificationsEnabled: true,
};

/** docs/product.md §5 "Create user": the roles offered are the ones the viewer may create. */
export function CreateUserDialog() {
  const viewer = usePrincipal();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateUser();
  const roles = assignableRoles(viewer).filter((role) => canCreateUser(viewer, { role, superAdmin: false }));

  function change(next: Partial<Values>) {
    setValues((v) => ({ ...v, ...next }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([field]) => !(field in next))));
  }

  function close(next: boolean) {
    if (!next) {
      setValues(empty);
      setErrors({});
    }
    setOpen(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createUserSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    const { assignedResidenceId: _, ...user } = parsed.data;
    create.mutate(user, { onSuccess: () => close(false) });
  }

  const password = (field: 'password' | 'confirmPassword', label: string) => (
    <Field label={label} error={errors[field]}>
      {(p) => (
        <Input
          {...p}
          type="password"
          autoComplete="new-password"
          value={values[field]}
          onChange={(e) => change({ [field]: e.target.value })}
        />
      )}
    </Field>
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden />
          Add User
        </Button>
      </DialogTrigger>
      <DialogContent dismissOnOutsideClick={false}>
        <DialogHeader
          title="Create User Account"
          description="The new user signs in with this username and password."
        />
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <PersonFields
            values={values}
            errors={errors}
            onChange={(field, value) => change({ [field]: value })}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            {password('password', 'Password')}
            {password('confirmPassword', 'Confirm Password')}
          </div>
          <AccessFields
            values={values}
            roles={roles}
            showSuperAdmin={can(viewer, 'changeUserRoles')}
            showNotifications={viewer.role === 'developer'}
            onChange={change}
          />
          <DialogFormFooter
            onCancel={() => close(false)}
            submitLabel="Create User"
            pending={create.isPending}
            pendingLabel="Creating..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
