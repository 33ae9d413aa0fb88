import { Inbox, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Alert, Spinner } from '../../components/ui/feedback';
import { errorToast } from '../toast/toast';
import { QueueStats } from './queue-stats';
import { useClearQueue, useEmailQueueStatus } from './use-developer-tools';

/** The e-mail queue's state, with refresh and Clear Queue. */
export function EmailQueueCard() {
  const queue = useEmailQueueStatus();
  const clear = useClearQueue();
  const [confirming, setConfirming] = useState(false);

  async function refreshStatus() {
    const result = await queue.refetch();
    if (result.error) errorToast(result.error, 'Failed to get status');
  }

  return (
    <Card>
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <Inbox className="size-4 text-teal-700" aria-hidden />
            Email Queue
          </CardTitle>
          <CardDescription>E-mails waiting to be delivered.</CardDescription>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={queue.isFetching} onClick={refreshStatus}>
            <RefreshCw className={queue.isFetching ? 'animate-spin' : undefined} aria-hidden />
            Refresh
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="border-red-200 text-red-700 hover:bg-red-50"
            onClick={() => setConfirming(true)}
          >
            <Trash2 aria-hidden />
            Clear Queue
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {queue.isLoading ? (
          <Spinner label="Loading queue status" />
        ) : queue.data ? (
          <QueueStats status={queue.data} />
        ) : (
          <Alert className="border-red-200 bg-red-50 text-red-900">
            {queue.error?.message || 'Failed to get status'}
          </Alert>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Clear Queue"
        description="Every e-mail still waiting in the queue will be dropped without being sent."
        confirmLabel="Clear Queue"
        busy={clear.isPending}
        onConfirm={() => clear.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </Card>
  );
}
