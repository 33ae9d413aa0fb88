import {
  DomainError,
  dueSteps,
  type EscalationAudience,
  type EscalationStep,
  easternToday,
  MAX_ESCALATION_HOURS,
  type OutreachNotice,
  previousDate,
  stepKey,
} from '@shiftcover/domain';
import { adminsOfResidence, type ShiftLadderRow } from '@shiftcover/projections';
import { type ShiftTimerDeps, TIMERS } from './timer-deps';

const HOUR_MS = 3_600_000;
/** Eligibility checks run at once by a sweep. */
const READS_AT_ONCE = 4;

/** An open shift's ladder, as the outreach read model keeps it. */
type Ladder = Omit<ShiftLadderRow, 'open'>;

interface Person {
  id: string;
  address: string | null;
  email_notifications_enabled: boolean;
}

/** The people a step's audience names, with how each can be reached by e-mail. */
async function audienceOf(
  deps: ShiftTimerDeps,
  audience: EscalationAudience,
  shift: Ladder,
  now: Date,
): Promise<Person[]> {
  const { sql } = deps;
  const columns = sql`id, coalesce(notification_email, email) as address, email_notifications_enabled`;
  if (audience === 'super_admins')
    return sql<Person[]>`select ${columns} from rm_users where role = 'admin' and super_admin order by id`;
  if (audience === 'residence_admins') {
    const admins = sql`(select id, assigned_residence_id as residence_id from rm_users where role = 'admin')`;
    return sql<Person[]>`select ${columns} from rm_users
      where id in (${adminsOfResidence(sql, admins, sql('rm_residences'), shift.location)}) order by id`;
  }
  const staff = await sql<Person[]>`select ${columns} from rm_users where role = 'staff' order by id`;
  if (audience === 'all_staff') return staff;
  // Eligible: every rule a claim would be held to, read from the streams the claim decides on, a
  // few people at a time so that a sweep never takes every connection from the requests; a shift
  // taken since the sweep read its ladder reads nobody's schedule.
  const eligible = new Set(
    (await deps.service.safety.eligibleAmong(
      shift.shift_id,
      staff.map((person) => person.id),
      now,
      READS_AT_ONCE,
    )) ?? [],
  );
  return staff.filter((person) => eligible.has(person.id));
}

/**
 * Each person hears in the app; by e-mail at their own address when they want e-mail, or, in
 * mailing-list mode, the list hears once for them all (docs/product.md §8).
 */
async function noticesFor(deps: ShiftTimerDeps, people: Person[]): Promise<OutreachNotice[]> {
  const [mode] = await deps.sql<{ value: string; mailing_list_address: string | null }[]>`
    select value, mailing_list_address from rm_system_config where key = 'email-notification-mode'`;
  const notices: OutreachNotice[] = people.map((p) => ({ userId: p.id, channel: 'in_app' }));
  if (mode?.value === 'mailing_list') {
    if (mode.mailing_list_address && people.length) notices.push({ userId: null, channel: 'mailing_list' });
  } else {
    for (const p of people)
      if (p.address && p.email_notifications_enabled) notices.push({ userId: p.id, channel: 'email' });
  }
  return notices;
}

/**
 * Runs the steps of the escalation ladder that have fallen due for every shift still open
 * (docs/product.md §11). Each step is a command whose id names shift, opening and step, and the
 * decider remembers the steps run in the opening, so a sweep repeated, run by two processes at
 * once or after a restart runs no step twice; a shift taken meanwhile is refused and left alone.
 */
export async function escalateUnfilledShifts(deps: ShiftTimerDeps): Promise<string[]> {
  const now = deps.clock?.() ?? new Date();
  const { steps } = await deps.service.escalation.policy();
  if (steps.length === 0) return [];
  const horizon = easternToday(new Date(now.getTime() + MAX_ESCALATION_HOURS * HOUR_MS));
  const ladders = await deps.sql<Ladder[]>`
    select shift_id, location, date, start_time, end_time, opening, opened_at, steps_run
    from rm_shift_ladders
    where open and date >= ${previousDate(easternToday(now))} and date <= ${horizon}
    order by date, start_time`;
  const escalated: string[] = [];
  for (const ladder of ladders) {
    const shift = {
      date: ladder.date,
      startTime: ladder.start_time,
      endTime: ladder.end_time,
      openedAt: ladder.opened_at,
    };
    for (const step of dueSteps(steps, shift, ladder.steps_run, now)) {
      const outcome = await runStep(deps, ladder, step, now);
      if (outcome === 'closed') break;
      if (outcome === 'ran') escalated.push(`${ladder.shift_id}:${stepKey(step)}`);
    }
  }
  if (escalated.length) deps.log?.info({ escalated }, 'escalation ladder ran due steps');
  return escalated;
}

/** One step for one shift: run now, run before, or refused because the shift is no longer open. */
async function runStep(
  deps: ShiftTimerDeps,
  ladder: Ladder,
  step: EscalationStep,
  now: Date,
): Promise<'ran' | 'already' | 'closed'> {
  const notices = await noticesFor(deps, await audienceOf(deps, step.audience, ladder, now));
  try {
    const outcome = await deps.service.shift(
      {
        type: 'EscalateShift',
        data: { shiftId: ladder.shift_id, opening: ladder.opening, step, notices },
      },
      { actor: TIMERS, now },
      { commandId: `Escalate:${ladder.shift_id}:${ladder.opening}:${stepKey(step)}` },
    );
    return !outcome.duplicate && outcome.events.length > 0 ? 'ran' : 'already';
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return 'closed';
  }
}
