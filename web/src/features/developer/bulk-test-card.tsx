import { bulkTestSchema } from '@shiftcover/domain';
import { FlaskConical } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Field, Input } from '../../components/ui/form';
import { errorToast } from '../toast/toast';
import { EMAILS_PER_SHIFT, expectedEmails, MAX_POLLS, pollDelay } from './bulk-poll';
import { useBulkTest, useEmailQueueStatus } from './use-developer-tools';

/** docs/product.md §9 "Bulk test": create test shifts, then watch the queue drain. */
export function BulkTestCard() {
  const [count, setCount] = useState('20');
  const [error, setError] = useState<string>();
  const [polls, setPolls] = useState<number | null>(null);
  const bulk = useBulkTest();
  const queue = useEmailQueueStatus();
  const { refetch } = queue;

  useEffect(() => {
    if (polls === null) return;
    const delay = pollDelay(polls);
    if (delay === null) return;
    const timer = setTimeout(async () => {
      const result = await refetch();
      if (result.error) {
        errorToast(result.error, 'Failed to get status');
        setPolls(null);
      } else setPolls(polls + 1);
    }, delay);
    return () => clearTimeout(timer);
  }, [polls, refetch]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = bulkTestSchema.safeParse({ count });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    bulk.mutate(parsed.data.count, { onSuccess: () => setPolls(0) });
  }

  const result = bulk.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FlaskConical className="size-4 text-teal-700" aria-hidden />
          Email Queue Bulk Test
        </CardTitle>
        <CardDescription>
          Creates test shifts; expect {EMAILS_PER_SHIFT} e-mails per shift, delivered within 3 minutes.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
          <Field label="Number of shifts (1–50)" error={error} className="w-48">
            {(p) => (
              <Input
                {...p}
                type="number"
                inputMode="numeric"
                min={1}
                max={50}
                value={count}
                onChange={(e) => {
                  setCount(e.target.value);
                  setError(undefined);
                }}
              />
            )}
          </Field>
          <Button type="submit" disabled={bulk.isPending}>
            {bulk.isPending ? 'Starting...' : 'Start Bulk Test'}
          </Button>
        </form>
        {result && (
          <div
            role="status"
            className="grid gap-1 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm"
          >
            <p className="font-medium text-slate-900">
              {result.shiftsCreated} shifts created · {result.emailsQueued} e-mails queued
            </p>
            <p className="text-slate-700">
              Expected {expectedEmails(result.shiftsCreated)} e-mails within 3 minutes.
              {queue.data && ` Queue now: ${queue.data.pending} pending, ${queue.data.ready} ready.`}
            </p>
            {polls !== null && (
              <p className="text-xs text-slate-500">
                {polls < MAX_POLLS
                  ? `Checking the queue (${polls} of ${MAX_POLLS} checks done)`
                  : 'Finished checking the queue.'}
              </p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
