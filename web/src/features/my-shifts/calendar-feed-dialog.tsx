import { formatEastern } from '@shiftcover/domain';
import { CalendarPlus, Copy, ExternalLink } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button, buttonVariants } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTrigger } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/feedback';
import { Field, Input } from '../../components/ui/form';
import { toast } from '../toast/toast';
import { useCalendarFeedStatus, useCreateCalendarFeed, useRevokeCalendarFeed } from './use-calendar-feed';

/** The same address for calendar apps: `webcal:` asks the system to subscribe rather than download. */
const webcal = (url: string) => url.replace(/^https?:/, 'webcal:');

/**
 * docs/product.md §2.11.1: a private address for the user's calendar app, made here and shown this
 * once (only its digest is kept), with a copy button, a webcal link and Revoke.
 */
export function CalendarFeedDialog() {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const status = useCalendarFeedStatus(open);
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const makeButton = useRef<HTMLButtonElement>(null);

  function changeOpen(next: boolean) {
    // The address leaves the screen with the dialog: it is a secret.
    if (!next) setUrl(null);
    setOpen(next);
  }

  async function copy(address: string) {
    try {
      await navigator.clipboard.writeText(address);
      toast({ title: 'Address Copied', description: 'Paste it into your calendar app.', variant: 'success' });
    } catch {
      toast({
        title: 'Could not copy',
        description: 'Select the address and copy it yourself.',
        variant: 'destructive',
      });
    }
  }

  const makeAddress = () => create.mutate(undefined, { onSuccess: (made) => setUrl(made.url) });
  const active = url !== null || status.data?.active === true;

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <CalendarPlus aria-hidden />
          Subscribe in your calendar
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader
          title="Subscribe in your calendar"
          description="Your approved shifts in Google Calendar, Apple Calendar or Outlook, kept up to date as they change. The address is private: anyone who has it sees your shifts."
        />
        {status.isLoading ? (
          <Spinner label="Loading your calendar feed" />
        ) : url ? (
          <div className="grid gap-3">
            <Field
              label="Calendar address"
              hint="Shown this once. Add it to your calendar app as a subscription (from a URL)."
            >
              {(p) => (
                <Input {...p} readOnly value={url} data-autofocus onFocus={(e) => e.currentTarget.select()} />
              )}
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => void copy(url)}>
                <Copy aria-hidden />
                Copy address
              </Button>
              <a href={webcal(url)} className={buttonVariants({ variant: 'outline' })}>
                <ExternalLink aria-hidden />
                Open in calendar app
              </a>
            </div>
          </div>
        ) : (
          <p className="text-sm text-slate-700">
            {status.data?.active && status.data.createdAt
              ? `You made a calendar address on ${formatEastern(status.data.createdAt, 'MMM d, yyyy')}. It is shown only when it is made: a new address replaces it, and the old one stops working.`
              : 'Make a private address, then add it to your calendar app.'}
          </p>
        )}
        <DialogFooter>
          {active ? (
            <Button
              variant="destructive"
              disabled={revoke.isPending}
              onClick={() =>
                revoke.mutate(undefined, {
                  onSuccess: () => {
                    setUrl(null);
                    // Revoke goes away with the feed: focus stays in the dialog, on what makes a new one.
                    makeButton.current?.focus();
                  },
                })
              }
            >
              {revoke.isPending ? 'Revoking...' : 'Revoke'}
            </Button>
          ) : null}
          <Button ref={makeButton} disabled={create.isPending} onClick={makeAddress}>
            {create.isPending ? 'Creating...' : active ? 'New address' : 'Create address'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
