import { can } from '@shiftcover/domain';
import { ShieldAlert } from 'lucide-react';
import { Alert } from '../../components/ui/feedback';
import { usePrincipal } from '../auth/session';
import { BulkTestCard } from './bulk-test-card';
import { EasternClockCard } from './eastern-clock-card';
import { EmailModeCard } from './email-mode-card';
import { EmailQueueCard } from './email-queue-card';
import { TestEmailCard } from './test-email-card';

/** Admin Dashboard tab for developers: e-mail testing, the Eastern clock and the e-mail queue. */
export function DeveloperToolsTab() {
  const viewer = usePrincipal();
  if (!can(viewer, 'developerTools')) {
    return (
      <Alert className="border-red-200 bg-red-50 text-red-900">
        <ShieldAlert className="size-5 shrink-0" aria-hidden />
        Developer tools are for developers only.
      </Alert>
    );
  }
  return (
    <section aria-label="Developer tools" className="grid gap-4 lg:grid-cols-2 lg:items-start">
      <div className="grid gap-4">
        <EasternClockCard />
        <EmailModeCard />
        <TestEmailCard />
      </div>
      <div className="grid gap-4">
        <EmailQueueCard />
        <BulkTestCard />
      </div>
    </section>
  );
}
