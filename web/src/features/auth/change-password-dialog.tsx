import { changeOwnPasswordSchema } from '@shiftcover/domain';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/form';
import { fieldErrors } from '../../lib/form-errors';
import { errorToast, toast } from '../toast/toast';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      api.post('/api/auth/change-password', body),
    onSuccess: () => {
      toast({
        title: 'Password changed',
        description: 'Your password has been updated successfully.',
        variant: 'success',
      });
      setValues(empty);
      onOpenChange(false);
    },
    onError: (error) => errorToast(error, 'Failed to change password'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = changeOwnPasswordSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    change.mutate({ currentPassword: values.currentPassword, newPassword: values.newPassword });
  }

  const set = (name: keyof typeof empty) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setValues(empty);
          setErrors({});
        }
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogHeader
          title="Change Password"
          description="Enter your current password and choose a new one."
        />
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field label="Current Password" error={errors.currentPassword}>
            {(p) => (
              <Input
                {...p}
                type="password"
                autoComplete="current-password"
                value={values.currentPassword}
                onChange={set('currentPassword')}
              />
            )}
          </Field>
          <Field label="New Password" error={errors.newPassword}>
            {(p) => (
              <Input
                {...p}
                type="password"
                autoComplete="new-password"
                placeholder="enter new password"
                value={values.newPassword}
                onChange={set('newPassword')}
              />
            )}
          </Field>
          <Field label="Confirm New Password" error={errors.confirmPassword}>
            {(p) => (
              <Input
                {...p}
                type="password"
                autoComplete="new-password"
                value={values.confirmPassword}
                onChange={set('confirmPassword')}
              />
            )}
          </Field>
          <DialogFormFooter
            onCancel={() => onOpenChange(false)}
            submitLabel="Change Password"
            pending={change.isPending}
            pendingLabel="Changing..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
