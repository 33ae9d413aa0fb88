import {
  type Actor,
  DomainError,
  easternInstant,
  easternToday,
  REMINDER_LEAD_HOURS,
} from '@shiftcover/domain';
import { type ShiftTimerDeps, TIMERS } from './timer-deps';

const HOUR_MS = 3_600_000;

/**
 * Reminds the holder of every approved shift that starts within the lead time (12 hours unless a
 * developer's test asks for a longer window). Each holder is reminded once per shift: the command
 * id names shift and holder, and the decider remembers whom it reminded.
 */
export async function remindHolders(
  deps: ShiftTimerDeps,
  options: { withinHours?: number; actor?: Actor } = {},
): Promise<string[]> {
  const now = deps.clock?.() ?? new Date();
  const lead = (options.withinHours ?? REMINDER_LEAD_HOURS) * HOUR_MS;
  const shifts = await deps.sql<{ id: string; date: string; start_time: string; assigned_user_id: string }[]>`
    select id, date, start_time, assigned_user_id from rm_shifts
    where status = 'approved' and assigned_user_id is not null
      and date >= ${easternToday(now)} and date <= ${easternToday(new Date(now.getTime() + lead))}`;
  const reminded: string[] = [];
  for (const shift of shifts) {
    const untilStart = easternInstant(shift.date, shift.start_time).getTime() - now.getTime();
    if (untilStart <= 0 || untilStart > lead) continue;
    try {
      const outcome = await deps.service.shift(
        { type: 'RemindHolder', data: { shiftId: shift.id } },
        { actor: options.actor ?? TIMERS, now },
        { commandId: `RemindHolder:${shift.id}:${shift.assigned_user_id}` },
      );
      if (!outcome.duplicate && outcome.events.length > 0) reminded.push(shift.id);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return reminded;
}
