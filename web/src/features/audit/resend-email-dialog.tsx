import { resendNotificationSchema } from '@shiftcover/domain';
import { Mail } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { EmptyState, Spinner } from '../../components/ui/feedback';
import { Checkbox } from '../../components/ui/form';
import { fullName, RoleBadge } from '../people/role-badge';
import { toast } from '../toast/toast';
import { useAllUsers } from '../users/use-users';
import { notificationRecipients, sendLabel } from './recipients';
import { useResendShiftNotification } from './use-audit-logs';

/** docs/product.md §2 "Resend Email": choose who gets a new shift's notification again. */
export function ResendEmailDialog({ shiftId, onClose }: { shiftId: string; onClose(): void }) {
  const idPrefix = useId();
  const users = useAllUsers();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const resend = useResendShiftNotification(shiftId);
  const recipients = notificationRecipients(users.data ?? []);

  function toggle(id: string, on: boolean) {
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = resendNotificationSchema.safeParse({ recipients: [...chosen] });
    if (!parsed.success) {
      toast({
        title: 'No Recipients Selected',
        description: 'Choose at least one person to send the notification to.',
        variant: 'destructive',
      });
      return;
    }
    resend.mutate(parsed.data.recipients, { onSuccess: onClose });
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader
          title="Select Recipients"
          description="The new-shift notification is sent again to the people you choose."
        />
        <form className="grid gap-4" onSubmit={submit}>
          {users.isLoading ? (
            <Spinner label="Loading recipients" />
          ) : recipients.length === 0 ? (
            <EmptyState icon={<Mail />} title="No staff members with notification emails found" />
          ) : (
            <fieldset className="grid gap-1">
              <legend className="mb-2 text-sm font-medium text-slate-800">Recipients</legend>
              <div className="mb-1 flex gap-3 text-sm">
                <Button
                  variant="link"
                  size="sm"
                  className="h-auto px-0"
                  onClick={() => setChosen(new Set(recipients.map((u) => u.id)))}
                >
                  Select all
                </Button>
                <Button variant="link" size="sm" className="h-auto px-0" onClick={() => setChosen(new Set())}>
                  Clear
                </Button>
              </div>
              <ul className="grid max-h-72 gap-1 overflow-y-auto rounded-md border border-slate-200 p-1">
                {recipients.map((u) => (
                  <li key={u.id}>
                    <label
                      htmlFor={`${idPrefix}-${u.id}`}
                      className="flex cursor-pointer items-center gap-3 rounded-md p-2 hover:bg-slate-50"
                    >
                      <Checkbox
                        id={`${idPrefix}-${u.id}`}
                        checked={chosen.has(u.id)}
                        onChange={(e) => toggle(u.id, e.target.checked)}
                      />
                      <span className="grid min-w-0 flex-1">
                        <span className="truncate text-sm font-medium text-slate-900">{fullName(u)}</span>
                        <span className="truncate text-xs text-slate-600">{u.notificationEmail}</span>
                      </span>
                      <RoleBadge role={u.role} />
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          )}
          <DialogFormFooter
            onCancel={onClose}
            submitLabel={sendLabel(chosen.size)}
            disabled={chosen.size === 0}
            pending={resend.isPending}
            pendingLabel="Sending..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
