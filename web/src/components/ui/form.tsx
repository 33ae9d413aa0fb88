import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';

const control =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus-visible:border-teal-600 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-teal-600 disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-red-500';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(control, 'h-10', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(control, 'min-h-20', className)} {...props} />;
}

/** A native select: keyboard- and phone-friendly, styled like the other controls. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(control, 'h-10 pr-8', className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor
  return <label className={cn('text-sm font-medium text-slate-800', className)} {...props} />;
}

/**
 * A labelled control with its error message: the control gets the id, aria-invalid and
 * aria-describedby it needs.
 */
export function Field({
  label,
  error,
  hint,
  children,
  className,
}: {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
  className?: string;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': error || hint ? messageId : undefined,
      })}
      {error ? (
        <p id={messageId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export interface Option<V extends string = string> {
  value: V;
  label: string;
}

/**
 * A labelled native select over `options`; `onChange` gets the chosen option's value. `busy` says
 * its options are still loading while leaving it focusable (a dialog opens on its first field).
 */
export function SelectField<V extends string>({
  label,
  value,
  options,
  onChange,
  error,
  hint,
  disabled,
  busy,
  className,
}: {
  label: ReactNode;
  value: NoInfer<V>;
  options: readonly Option<V>[];
  onChange(value: V): void;
  error?: string;
  hint?: ReactNode;
  disabled?: boolean;
  busy?: boolean;
  className?: string;
}) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(props) => (
        <Select
          {...props}
          value={value}
          disabled={disabled}
          aria-busy={busy || undefined}
          onChange={(e) => onChange(e.target.value as V)}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

export function Checkbox({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <input
      type="checkbox"
      className={cn('size-4 rounded border-slate-400 accent-teal-700', className)}
      {...props}
    />
  );
}
