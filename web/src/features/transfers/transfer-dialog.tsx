import { isTransferRecipient, transferRequestSchema } from '@shiftcover/domain';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import type { Colleague, Shift } from '../../api/types';
import { Dialog, DialogContent, DialogFormFooter, DialogHeader } from '../../components/ui/dialog';
import { Field, Textarea } from '../../components/ui/form';
import { fieldErrors } from '../../lib/form-errors';
import { useSignedInUser } from '../auth/session';
import { StaffMemberField } from '../people/staff-member-field';
import { ShiftSummaryLine } from './shift-summary-line';
import { useRequestTransfer } from './use-transfers';

/** docs/product.md §9: the user list behind the recipient picker is cached for 30 s. */
const USERS_CACHE_MS = 30_000;

const empty = { toUserId: '', message: '' };

/** docs/product.md §2 "Request Shift Transfer": pick a colleague, add an optional message, send. */
export function TransferDialog({
  shift,
  open,
  onOpenChange,
}: {
  shift: Shift;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const me = useSignedInUser();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const users = useQuery({
    queryKey: keys.users(),
    queryFn: () => api.get<Colleague[]>('/api/users'),
    staleTime: USERS_CACHE_MS,
    enabled: open,
  });
  const recipients = (users.data ?? []).filter((u) =>
    isTransferRecipient(me.id, { userId: u.id, role: u.role, superAdmin: false }),
  );
  const send = useRequestTransfer(shift.id);

  function close(next: boolean) {
    if (!next) {
      setValues(empty);
      setErrors({});
    }
    onOpenChange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = transferRequestSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    const { toUserId, message } = parsed.data;
    send.mutate({ toUserId, message: message || undefined }, { onSuccess: () => close(false) });
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader title="Request Shift Transfer" description={<ShiftSummaryLine shift={shift} />} />
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <StaffMemberField
            people={recipients}
            loading={users.isLoading}
            error={errors.toUserId}
            value={values.toUserId}
            onChange={(toUserId) => {
              setValues((v) => ({ ...v, toUserId }));
              setErrors(({ toUserId: _, ...rest }) => rest);
            }}
          />
          <Field label="Message (optional)" error={errors.message}>
            {(p) => (
              <Textarea
                {...p}
                maxLength={1000}
                placeholder="Add a note for your colleague"
                value={values.message}
                onChange={(e) => setValues((v) => ({ ...v, message: e.target.value }))}
              />
            )}
          </Field>
          <DialogFormFooter
            onCancel={() => close(false)}
            submitLabel="Send Request"
            pending={send.isPending}
            pendingLabel="Sending..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
