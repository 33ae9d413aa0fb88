import type { Role } from '@shiftcover/domain';
import { useId } from 'react';
import { Checkbox, Field, Input, Label, SelectField } from '../../components/ui/form';

export interface PersonValues {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface AccessValues {
  role: Role;
  superAdmin: boolean;
  emailNotificationsEnabled: boolean;
}

const roleLabels: Record<Role, string> = { developer: 'Developer', admin: 'Admin', staff: 'Staff' };

type Errors = Record<string, string>;

/** Names, username and e-mail: the same fields on the create and edit dialogs. */
export function PersonFields<T extends PersonValues>({
  values,
  errors,
  onChange,
}: {
  values: T;
  errors: Errors;
  onChange(field: keyof PersonValues, value: string): void;
}) {
  const text = (field: keyof PersonValues, label: string, type = 'text', autoComplete = 'off') => (
    <Field label={label} error={errors[field]}>
      {(p) => (
        <Input
          {...p}
          type={type}
          autoComplete={autoComplete}
          value={values[field]}
          onChange={(e) => onChange(field, e.target.value)}
        />
      )}
    </Field>
  );
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {text('firstName', 'First Name', 'text', 'given-name')}
        {text('lastName', 'Last Name', 'text', 'family-name')}
      </div>
      {text('username', 'Username', 'text', 'username')}
      {text('email', 'Email', 'email', 'email')}
    </>
  );
}

/**
 * Role, Super Admin Privileges and Email Notifications Enabled. A role the viewer may not change
 * is shown fixed; the two switches appear only to those docs/product.md §6 lets set them.
 */
export function AccessFields({
  values,
  roles,
  showSuperAdmin,
  showNotifications,
  onChange,
}: {
  values: AccessValues;
  /** The roles the viewer may pick; one role or none means the role is fixed. */
  roles: Role[];
  showSuperAdmin: boolean;
  showNotifications: boolean;
  onChange(values: Partial<AccessValues>): void;
}) {
  return (
    <>
      {roles.length > 1 ? (
        <SelectField
          label="Role"
          value={values.role}
          options={roles.map((role) => ({ value: role, label: roleLabels[role] }))}
          onChange={(role) => {
            // Super Admin Privileges exist only on admin accounts.
            onChange({ role, superAdmin: role === 'admin' && values.superAdmin });
          }}
        />
      ) : (
        <div className="grid gap-1.5">
          <span className="text-sm font-medium text-slate-800">Role</span>
          <p className="flex items-center justify-between rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
            <span>{roleLabels[values.role]}</span>
            <span className="text-xs text-slate-500">Cannot be changed</span>
          </p>
        </div>
      )}
      {showSuperAdmin && values.role === 'admin' && (
        <Toggle
          label="Super Admin Privileges"
          hint="Can create other admins and super admins and change any user's password."
          checked={values.superAdmin}
          onChange={(superAdmin) => onChange({ superAdmin })}
        />
      )}
      {showNotifications && (
        <Toggle
          label="Email Notifications Enabled"
          hint="Send shift e-mails to this user's notification e-mail."
          checked={values.emailNotificationsEnabled}
          onChange={(emailNotificationsEnabled) => onChange({ emailNotificationsEnabled })}
        />
      )}
    </>
  );
}

function Toggle({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3 rounded-md border border-slate-200 p-3">
      <Checkbox
        id={id}
        className="mt-0.5"
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      </div>
    </div>
  );
}
