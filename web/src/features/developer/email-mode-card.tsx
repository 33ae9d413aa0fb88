import { Mails } from 'lucide-react';
import { useId, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/feedback';
import { cn } from '../../lib/cn';
import { type EmailMode, useEmailMode, useSetEmailMode } from './use-developer-tools';

const modes: { value: EmailMode; label: string; hint: string }[] = [
  { value: 'individual', label: 'Individual', hint: "Each user's own notification e-mail" },
  { value: 'mailing_list', label: 'Mailing List', hint: 'One shared mailing-list address' },
];

/** Where notification e-mails go (docs/product.md §9 "E-mail mode"). */
export function EmailModeCard() {
  const name = useId();
  const mode = useEmailMode();
  const setMode = useSetEmailMode();
  // The choice shows at once and stays until the saved mode has been read back.
  const [chosen, setChosen] = useState<EmailMode | null>(null);
  const current = chosen ?? mode.data?.value;

  function choose(next: EmailMode) {
    setChosen(next);
    setMode.mutate(next, { onSettled: () => setChosen(null) });
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Mails className="size-4 text-teal-700" aria-hidden />
          Email Notification Mode
        </CardTitle>
        <CardDescription>
          {mode.data?.mailingListAddress
            ? `Mailing list: ${mode.data.mailingListAddress}`
            : 'Choose who receives shift notification e-mails.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {mode.isLoading ? (
          <Spinner label="Loading e-mail mode" />
        ) : (
          <fieldset className="grid gap-2 sm:grid-cols-2" disabled={setMode.isPending}>
            <legend className="sr-only">Email Notification Mode</legend>
            {modes.map((option) => (
              <label
                key={option.value}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-teal-600',
                  current === option.value
                    ? 'border-teal-600 bg-teal-50'
                    : 'border-slate-200 hover:bg-slate-50',
                )}
              >
                <input
                  type="radio"
                  name={name}
                  value={option.value}
                  className="mt-1 accent-teal-700"
                  checked={current === option.value}
                  onChange={() => choose(option.value)}
                />
                <span className="grid">
                  <span className="text-sm font-medium text-slate-900">{option.label}</span>
                  <span className="text-xs text-slate-600">{option.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
      </CardContent>
    </Card>
  );
}
