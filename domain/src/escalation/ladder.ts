import { easternInstant, shiftInterval } from '../time/eastern';
import type { EscalationAudience, EscalationMark, EscalationStep } from './policy';

const HOUR_MS = 3_600_000;

/** How a person was told of a step: in the app, by e-mail, or (no person named) on the mailing list. */
export const outreachChannels = ['in_app', 'email', 'mailing_list'] as const;
export type OutreachChannel = (typeof outreachChannels)[number];
export const channelLabels: Record<OutreachChannel, string> = {
  in_app: 'in the app',
  email: 'e-mail',
  mailing_list: 'mailing list',
};
export interface OutreachNotice {
  userId: string | null;
  channel: OutreachChannel;
}

/**
 * A step's name within a ladder, unique since steps are strictly ordered: `posting`, or the hours
 * before the start (`48h`). A step keeps its name when others are added or removed.
 */
export const stepKey = (step: Pick<EscalationStep, 'hoursBeforeStart'>) =>
  step.hoursBeforeStart === null ? 'posting' : `${step.hoursBeforeStart}h`;

/** A step as people read it: "At posting", "48 h before the start". */
export const stepLabel = (step: Pick<EscalationStep, 'hoursBeforeStart'>) =>
  step.hoursBeforeStart === null ? 'At posting' : `${step.hoursBeforeStart} h before the start`;

export const audienceLabels: Record<EscalationAudience, string> = {
  eligible_staff: 'Eligible staff',
  all_staff: 'All staff',
  residence_admins: 'Residence admins',
  super_admins: 'Super admins',
};

/** The shift as the ladder reads it: when it starts and ends, and when it last became open. */
export interface LadderShift {
  date: string;
  startTime: string;
  endTime: string;
  openedAt: Date;
}

/**
 * When a step falls due: at posting, the moment the shift became open (posted, or open again);
 * otherwise that many hours of real elapsed time before the start, so across a change of the clocks
 * "24 h before" is 23 or 25 hours of wall clock.
 */
export function stepDueAt(step: Pick<EscalationStep, 'hoursBeforeStart'>, shift: LadderShift): Date {
  if (step.hoursBeforeStart === null) return shift.openedAt;
  return new Date(easternInstant(shift.date, shift.startTime).getTime() - step.hoursBeforeStart * HOUR_MS);
}

/**
 * How late a step may still run: a sweep missed while the timers were down catches up, but a step
 * further behind is skipped, so a shift posted late starts the ladder where it stands and shifts
 * open long ago are not all announced at once when the ladder first runs.
 */
export const ESCALATION_CATCH_UP_HOURS = 24;

/**
 * The steps to run now for a shift still open: those not yet run in this opening whose time has
 * come, at most a day ago, in ladder order, while the shift has not ended.
 */
export function dueSteps(
  steps: readonly EscalationStep[],
  shift: LadderShift,
  done: readonly string[],
  now: Date,
): EscalationStep[] {
  if (now >= shiftInterval(shift.date, shift.startTime, shift.endTime).end) return [];
  const oldest = now.getTime() - ESCALATION_CATCH_UP_HOURS * HOUR_MS;
  return steps.filter((step) => {
    const due = stepDueAt(step, shift).getTime();
    return !done.includes(stepKey(step)) && due <= now.getTime() && due > oldest;
  });
}

/** Events after which a shift is open again: the ladder starts over. */
export const openingEvents: readonly string[] = [
  'ShiftPosted',
  'ClaimDenied',
  'DropApproved',
  'HolderRemoved',
];
/** Events after which someone has the shift (claimed or assigned): the ladder stops. */
export const takingEvents: readonly string[] = ['ShiftClaimed', 'ShiftAssigned'];

/** What a step's notice says, the same in the app and by e-mail. */
export function outreachWording(
  step: { hoursBeforeStart: number | null; audience: EscalationAudience; mark: EscalationMark | null },
  shiftLabel: string,
): { title: string; text: string } {
  const staff = step.audience === 'eligible_staff' || step.audience === 'all_staff';
  const title = step.mark
    ? `${step.mark === 'urgent' ? 'Urgent' : 'Emergency'} coverage needed`
    : step.audience === 'eligible_staff'
      ? 'Shift open to you'
      : staff
        ? 'Shift still open'
        : 'Shift still unfilled';
  const when = step.hoursBeforeStart === null ? '' : ` ${step.hoursBeforeStart} hours before it starts`;
  const text = staff
    ? step.audience === 'eligible_staff' && step.hoursBeforeStart === null
      ? `The ${shiftLabel} is open and you can take it.`
      : `The ${shiftLabel} still needs someone${when}. Claim it if you can work it.`
    : `The ${shiftLabel} is still unfilled${when}.`;
  return { title, text };
}
