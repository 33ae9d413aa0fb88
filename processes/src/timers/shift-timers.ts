import {
  COMPLETION_DELAY_HOURS,
  DomainError,
  easternToday,
  nextDate,
  shiftInterval,
} from '@shiftcover/domain';
import { CronJob } from 'cron';
import { noticeExpiringCredentials } from './credential-notices';
import { escalateUnfilledShifts } from './escalation';
import { OneAtATime } from './one-at-a-time';
import { remindHolders } from './reminders';
import { sendDueReports } from './reports';
import { type ShiftTimerDeps, TIMERS } from './timer-deps';

const HOUR_MS = 3_600_000;

interface Candidate {
  id: string;
  date: string;
  start_time: string;
  end_time: string;
  assigned_user_id: string | null;
  approved: boolean;
}

/**
 * Completes every approved shift from 1 hour after its end and expires every unfilled shift that
 * has ended. Command ids come from the shift, so a sweep repeated (or run by two processes) changes
 * nothing twice; the deciders check again that each shift is really due.
 */
export async function settleDueShifts(
  deps: ShiftTimerDeps,
): Promise<{ completed: string[]; expired: string[] }> {
  const now = deps.clock?.() ?? new Date();
  const tomorrow = nextDate(easternToday(now));
  const candidates = await deps.sql<Candidate[]>`
    select id, date, start_time, end_time, assigned_user_id, approved from rm_shifts
    where status not in ('completed', 'expired') and date <= ${tomorrow}`;
  const completed: string[] = [];
  const expired: string[] = [];
  for (const shift of candidates) {
    const { end } = shiftInterval(shift.date, shift.start_time, shift.end_time);
    const filled = shift.approved && shift.assigned_user_id !== null;
    const due = filled ? now.getTime() >= end.getTime() + COMPLETION_DELAY_HOURS * HOUR_MS : now >= end;
    if (!due) continue;
    const type = filled ? 'CompleteShift' : 'ExpireShift';
    try {
      const outcome = await deps.service.shift(
        { type, data: { shiftId: shift.id } },
        { actor: TIMERS, now },
        {
          commandId: `${type}:${shift.id}`,
        },
      );
      if (!outcome.duplicate) (filled ? completed : expired).push(shift.id);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  if (completed.length || expired.length)
    deps.log?.info({ completed, expired }, 'shift timers settled due shifts');
  return { completed, expired };
}

/**
 * Every minute, Eastern time: settles due shifts, runs the escalation ladder's due steps for shifts
 * still open, reminds holders of shifts about to start, tells
 * people of credentials about to expire, and sends the monthly and weekly reports when due. The first sweep runs at start, catching up
 * whatever fell due while the server was stopped.
 */
export class ShiftTimers {
  private job: CronJob | undefined;
  /**
   * A minute that ticks during a long sweep (a burst of newly posted shifts to announce) asks for
   * one more sweep after it, however many minutes tick meanwhile: sweeps never queue up.
   */
  private readonly sweeps = new OneAtATime(async () => {
    for (const [name, step] of this.steps()) {
      await step().catch((error) => this.deps.log?.error({ err: error }, `timers: ${name} failed`));
    }
  });

  constructor(private readonly deps: ShiftTimerDeps) {}

  async start(): Promise<void> {
    await this.sweeps.run();
    this.job = CronJob.from({
      cronTime: '0 * * * * *',
      timeZone: 'America/New_York',
      onTick: () => void this.sweeps.run(),
      start: true,
    });
  }

  async stop(): Promise<void> {
    await this.job?.stop();
    await this.sweeps.stop();
  }

  private steps(): Array<[string, () => Promise<unknown>]> {
    return [
      ['settling shifts', () => settleDueShifts(this.deps)],
      ['escalation ladder', () => escalateUnfilledShifts(this.deps)],
      ['reminders', () => remindHolders(this.deps)],
      ['credential notices', () => noticeExpiringCredentials(this.deps)],
      ['reports', () => sendDueReports(this.deps)],
    ];
  }
}
