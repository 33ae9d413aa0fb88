import { useId } from 'react';
import { Checkbox, Label } from '../../components/ui/form';
import { cn } from '../../lib/cn';
import { useCredentialTypes } from './use-rules';

function CredentialOption({
  name,
  checked,
  onChange,
}: {
  name: string;
  checked: boolean;
  onChange(on: boolean): void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <Label htmlFor={id} className="font-normal">
        {name}
      </Label>
    </div>
  );
}

/**
 * The credentials a shift requires, chosen from the organisation's list. A name the shift already
 * requires stays offered after it leaves the list, so saving the shift does not drop it unseen.
 */
export function RequiredCredentialsField({
  value,
  onChange,
  className,
}: {
  value: readonly string[];
  onChange(names: string[]): void;
  className?: string;
}) {
  const types = useCredentialTypes();
  const listed = (types.data ?? []).map((type) => type.name);
  const names = [...listed, ...value.filter((name) => !listed.includes(name))];
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((held) => held !== name));

  return (
    <fieldset className={cn('grid gap-2', className)} aria-busy={types.isLoading || undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">Required credentials (optional)</legend>
      {names.length === 0 ? (
        <p className="text-xs text-slate-500">
          {types.isLoading ? 'Loading credential types...' : 'No credential types yet.'}
        </p>
      ) : (
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {names.map((name) => (
            <CredentialOption
              key={name}
              name={name}
              checked={value.includes(name)}
              onChange={(on) => toggle(name, on)}
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}
