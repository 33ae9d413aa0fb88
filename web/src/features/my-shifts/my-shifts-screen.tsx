import { Link } from '@tanstack/react-router';
import { CalendarDays } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { buttonVariants } from '../../components/ui/button';
import { Alert, EmptyState, Spinner } from '../../components/ui/feedback';
import { MAIN_ID } from '../../lib/focus';
import { MyCredentials, MyTimeOff } from '../rules/my-rules-sections';
import { TransferRequestsList } from '../transfers/transfer-requests-list';
import { CalendarFeedDialog } from './calendar-feed-dialog';
import { MyShiftCard } from './my-shift-card';
import { summarise } from './my-shifts-summary';
import { OfflineBanner } from './offline-banner';
import { ShiftHistory } from './shift-history';
import { SummaryCards } from './summary-cards';
import { useMyShifts } from './use-my-shifts';

/** Shifts end while the screen is open; re-reading the clock each minute moves them to history. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid content-start gap-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function MyShiftsScreen() {
  const myShifts = useMyShifts();
  const now = useMinuteClock();

  let body: ReactNode;
  if (myShifts.isLoading) body = <Spinner label="Loading your shifts" />;
  else if (myShifts.isError) {
    body = <Alert className="border-red-200 bg-red-50 text-red-900">{myShifts.error.message}</Alert>;
  } else {
    const summary = summarise([...(myShifts.data?.upcoming ?? []), ...(myShifts.data?.history ?? [])], now);
    body = (
      <>
        <SummaryCards summary={summary} />
        <div className="grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Section id="upcoming-heading" title="Upcoming Shifts">
            {summary.upcoming.length === 0 ? (
              <EmptyState icon={<CalendarDays />} title="No upcoming shifts">
                <Link to="/" className={buttonVariants({ variant: 'link' })}>
                  Find an open shift to claim
                </Link>
              </EmptyState>
            ) : (
              <ul className="grid gap-4">
                {summary.upcoming.map((shift) => (
                  <li key={shift.id}>
                    <MyShiftCard shift={shift} />
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <div className="grid content-start gap-8">
            <Section id="transfers-heading" title="Transfer Requests">
              <TransferRequestsList />
            </Section>
            <Section id="history-heading" title="Shift History">
              <ShiftHistory shifts={summary.history} />
            </Section>
            <Section id="time-off-heading" title="My Time Off">
              <MyTimeOff />
            </Section>
            <Section id="credentials-heading" title="My Credentials">
              <MyCredentials />
            </Section>
          </div>
        </div>
      </>
    );
  }

  return (
    <main id={MAIN_ID} tabIndex={-1} className="mx-auto grid max-w-7xl gap-6 px-4 py-6 outline-none">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">My Shifts</h1>
          <p className="text-sm text-slate-600">Your schedule, transfer requests and recent shifts.</p>
        </div>
        <CalendarFeedDialog />
      </div>
      <OfflineBanner />
      {body}
    </main>
  );
}
