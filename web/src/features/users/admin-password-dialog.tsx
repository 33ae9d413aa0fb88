import { adminChangePasswordSchema } from '@shiftcover/domain';
import { type FormEvent, useState } from 'react';
import type { ManagedUser } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/form';
import { fieldErrors } from '../../lib/form-errors';
import { fullName } from '../people/role-badge';
import { useAdminChangePassword } from './use-users';

/** An administrator sets another user's password (docs/product.md §5 "Admin change of another user's password"). */
export function AdminPasswordDialog({ user, onClose }: { user: ManagedUser; onClose(): void }) {
  const [values, setValues] = useState({ newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = useAdminChangePassword(user.id);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = adminChangePasswordSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    change.mutate(parsed.data.newPassword, { onSuccess: onClose });
  }

  const field = (name: keyof typeof values, label: string, placeholder: string) => (
    <Field label={label} error={errors[name]}>
      {(p) => (
        <Input
          {...p}
          type="password"
          autoComplete="new-password"
          placeholder={placeholder}
          value={values[name]}
          onChange={(e) => {
            setValues((v) => ({ ...v, [name]: e.target.value }));
            setErrors(({ [name]: _, ...rest }) => rest);
          }}
        />
      )}
    </Field>
  );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader
          title="Admin Change Password"
          description={`Set a new password for ${fullName(user)}. They will need to sign in again.`}
        />
        <form className="grid gap-4" onSubmit={submit} noValidate>
          {field('newPassword', 'New Password', 'enter new password')}
          {field('confirmPassword', 'Confirm New Password', 'confirm new password')}
          <DialogFormFooter
            onCancel={onClose}
            submitLabel="Change Password"
            pending={change.isPending}
            pendingLabel="Changing..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
