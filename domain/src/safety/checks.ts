import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { DomainError, type RejectionCode } from '../shared/errors';
import {
  dateOfDay,
  dayNumber,
  daysFrom,
  easternMidnight,
  formatEastern,
  intervalsOverlap,
  nextDate,
  previousDate,
} from '../time/eastern';
import { formatShiftDate } from '../time/labels';
import { heldWithin } from './held-times';
import type { VersionedRules } from './working-time';

/** The codes of docs/product.md §10: each names the rule a refusal is for. */
export type RuleCode = Extract<
  RejectionCode,
  | 'missing_credential'
  | 'unavailable'
  | 'rest_too_short'
  | 'weekly_hours_exceeded'
  | 'too_many_consecutive_days'
>;

/** The working-time rules, the ones an administrator may assign against with a reason. */
export const workingTimeRuleCodes: readonly RuleCode[] = [
  'rest_too_short',
  'weekly_hours_exceeded',
  'too_many_consecutive_days',
];

/** A shift's time as a person's schedule holds it. */
export interface HeldTime {
  shiftId: string;
  start: string;
  end: string;
  label: { location: string; date: string; startTime: string; endTime: string };
  requiredCredentials?: string[];
}

export interface Credential {
  credentialId: string;
  name: string;
  /** The last day it is valid, 'YYYY-MM-DD'; null when it does not expire. */
  expiresOn: string | null;
}

export interface TimeOff {
  timeOffId: string;
  startDate: string;
  endDate: string;
  note: string | null;
}

/** A rule a shift would break, in words and in figures. */
export interface RuleBreach {
  code: RuleCode;
  message: string;
  figures: Record<string, string | number>;
}

/** Everything a person's rules are checked against: what they hold, have, and cannot work. */
export interface PersonRecord {
  reservations: readonly HeldTime[];
  credentials: readonly Credential[];
  timeOff: readonly TimeOff[];
}

/** A refusal by a rule of §10: it carries the figures the refused command is recorded with. */
export class RuleRefusal extends DomainError {
  /** Where the refusal was recorded on the shift's stream, once it has been. */
  recordedPosition?: bigint;

  constructor(
    readonly breach: RuleBreach,
    readonly rulesVersion: number,
  ) {
    super(breach.code, breach.message);
  }
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Hours between two instants (ms), to the hundredth. */
const hoursBetween = (from: number, to: number) => Math.round(((to - from) / HOUR_MS) * 100) / 100;
const span = (t: { start: string; end: string }) => ({ start: new Date(t.start), end: new Date(t.end) });

/** A held time's instants (ms) and the Sunday its week starts on, as the rules compare them. */
interface Instants {
  start: number;
  end: number;
  week: string;
}

const instantsOfHeld = new WeakMap<HeldTime, Instants>();

/**
 * Worked out once per held time: a schedule's state keeps its reservations from one command to
 * the next, and every claim compares the new shift with each of them. State is never changed in
 * place, so an object's instants cannot go stale.
 */
export function instantsOf(held: HeldTime): Instants {
  let known = instantsOfHeld.get(held);
  if (!known) {
    known = { start: Date.parse(held.start), end: Date.parse(held.end), week: weekStart(held.label.date) };
    instantsOfHeld.set(held, known);
  }
  return known;
}
const dayAndTime = (at: Date) => formatEastern(at, 'EEE h:mm a');
const shortDate = (date: string) => format(parseISO(date), 'MMM d, yyyy');

/** The moment a credential stops being valid: the end of its last day, Eastern time. */
export function validUntil(credential: Credential): Date | null {
  return credential.expiresOn === null ? null : easternMidnight(nextDate(credential.expiresOn));
}

/** Whether a credential still holds when a shift of this time ends. */
export function coversUntil(credential: Credential, end: Date): boolean {
  const until = validUntil(credential);
  return until === null || until >= end;
}

/** The Sunday that starts a date's week (weeks run Sunday to Saturday). */
export function weekStart(date: string): string {
  const day = dayNumber(date);
  if (day === undefined) {
    const parsed = parseISO(date);
    return format(addDays(parsed, -parsed.getDay()), 'yyyy-MM-dd');
  }
  // 1970-01-01, day 0, was a Thursday: (day + 4) mod 7 counts the days since Sunday.
  return dateOfDay(day - ((((day + 4) % 7) + 7) % 7));
}

function credentialBreaches(wanted: HeldTime, record: PersonRecord, self: boolean): RuleBreach[] {
  const end = new Date(wanted.end);
  const breaches: RuleBreach[] = [];
  for (const name of wanted.requiredCredentials ?? []) {
    const held = record.credentials.filter((c) => c.name === name);
    if (held.some((c) => coversUntil(c, end))) continue;
    const latest = held
      .map((c) => c.expiresOn!)
      .sort()
      .at(-1);
    const whose = self ? 'Your' : 'Their';
    breaches.push(
      latest
        ? {
            code: 'missing_credential',
            message: `${whose} ${name} credential expires on ${shortDate(latest)}, before this shift ends`,
            figures: { credential: name, expiresOn: latest, shiftEnds: wanted.end },
          }
        : {
            code: 'missing_credential',
            message: `This shift needs the ${name} credential, which ${self ? 'you do' : 'this person does'} not have`,
            figures: { credential: name },
          },
    );
  }
  return breaches;
}

function availabilityBreaches(wanted: HeldTime, record: PersonRecord, self: boolean): RuleBreach[] {
  const shift = span(wanted);
  return record.timeOff
    .filter((off) =>
      intervalsOverlap(shift, {
        start: easternMidnight(off.startDate),
        end: easternMidnight(nextDate(off.endDate)),
      }),
    )
    .map((off) => ({
      code: 'unavailable' as const,
      message: `${self ? 'You are' : 'This person is'} off from ${shortDate(off.startDate)} to ${shortDate(off.endDate)}: this shift falls in that time off`,
      figures: { startDate: off.startDate, endDate: off.endDate },
    }));
}

function restBreaches(wanted: HeldTime, others: readonly HeldTime[], rules: VersionedRules, self: boolean) {
  const shift = instantsOf(wanted);
  const breaches: RuleBreach[] = [];
  for (const other of others) {
    const held = instantsOf(other);
    const before = held.end <= shift.start;
    if (!before && shift.end > held.start) continue; // overlapping time is the schedule's own conflict
    const [firstEnd, secondStart] = before ? [held.end, shift.start] : [shift.end, held.start];
    const rest = hoursBetween(firstEnd, secondStart);
    if (rest >= rules.minRestHours) continue;
    const [ending, starting] = [dayAndTime(new Date(firstEnd)), dayAndTime(new Date(secondStart))];
    const between = before
      ? `the shift ending ${ending} and this one starting ${starting}`
      : `this shift ending ${ending} and the one starting ${starting}`;
    breaches.push({
      code: 'rest_too_short',
      message: `${self ? 'You' : 'They'} would have ${rest} h of rest between ${between}; the minimum is ${rules.minRestHours} h`,
      figures: { restHours: rest, minRestHours: rules.minRestHours, otherShiftId: other.shiftId },
    });
  }
  return breaches;
}

function weeklyBreaches(wanted: HeldTime, others: readonly HeldTime[], rules: VersionedRules, self: boolean) {
  const { week } = instantsOf(wanted);
  const inWeek = [...others.filter((o) => instantsOf(o).week === week), wanted];
  const hours =
    Math.round(
      inWeek.reduce((sum, t) => sum + hoursBetween(instantsOf(t).start, instantsOf(t).end), 0) * 100,
    ) / 100;
  if (hours <= rules.maxHoursPerWeek) return [];
  return [
    {
      code: 'weekly_hours_exceeded' as const,
      message: `This shift would bring ${self ? 'your' : 'their'} hours in the week of ${formatShiftDate(week)} to ${hours} h; the maximum is ${rules.maxHoursPerWeek} h`,
      figures: { weekOf: week, hours, maxHoursPerWeek: rules.maxHoursPerWeek },
    },
  ];
}

/** The longest run of consecutive working days through `date`, as [first, last]. */
function runThrough(date: string, worked: ReadonlySet<string>): [string, string] {
  let first = date;
  let last = date;
  while (worked.has(previousDate(first))) first = previousDate(first);
  while (worked.has(nextDate(last))) last = nextDate(last);
  return [first, last];
}

function consecutiveBreaches(
  wanted: HeldTime,
  others: readonly HeldTime[],
  rules: VersionedRules,
  self: boolean,
) {
  const worked = new Set([...others.map((o) => o.label.date), wanted.label.date]);
  const [first, last] = runThrough(wanted.label.date, worked);
  const days = daysFrom(first, last) + 1;
  if (days <= rules.maxConsecutiveDays) return [];
  return [
    {
      code: 'too_many_consecutive_days' as const,
      message: `This shift would make ${days} working days in a row for ${self ? 'you' : 'them'} (${shortDate(first)} to ${shortDate(last)}); the maximum is ${rules.maxConsecutiveDays}`,
      figures: { days, from: first, to: last, maxConsecutiveDays: rules.maxConsecutiveDays },
    },
  ];
}

/**
 * The held times that can break a working-time rule with `wanted`: those within the minimum rest,
 * in its week, or within a run of working days one longer than allowed. Found by time, so a long
 * history costs no more than a short one (see `heldWithin`).
 */
function heldNear(wanted: HeldTime, held: readonly HeldTime[], rules: VersionedRules): HeldTime[] {
  const { start, end } = instantsOf(wanted);
  const reach =
    Math.max(rules.minRestHours * HOUR_MS, 8 * DAY_MS, (rules.maxConsecutiveDays + 2) * DAY_MS) + HOUR_MS;
  return heldWithin(held, start - reach, end + reach);
}

/**
 * Every rule of docs/product.md §10 that taking the `wanted` shift would break, in the order a
 * refusal names them: credentials, time off, then the working-time rules. The shift itself, and
 * reservations about to be released, are left out of `record.reservations` by the caller.
 *
 * The working-time rules look at the held times near the shift (`among`, by default); a run of
 * working days too long is then worked out from them all, as it may reach further, so that its
 * first and last days are named right.
 */
export function ruleBreaches(
  wanted: HeldTime,
  record: PersonRecord,
  rules: VersionedRules,
  self: boolean,
  among: (
    wanted: HeldTime,
    held: readonly HeldTime[],
    rules: VersionedRules,
  ) => readonly HeldTime[] = heldNear,
): RuleBreach[] {
  const others = (held: readonly HeldTime[]) => held.filter((r) => r.shiftId !== wanted.shiftId);
  const near = others(among(wanted, record.reservations, rules));
  const consecutive = consecutiveBreaches(wanted, near, rules, self);
  return [
    ...credentialBreaches(wanted, record, self),
    ...availabilityBreaches(wanted, record, self),
    ...restBreaches(wanted, near, rules, self),
    ...weeklyBreaches(wanted, near, rules, self),
    ...(consecutive.length === 0
      ? []
      : consecutiveBreaches(wanted, others(record.reservations), rules, self)),
  ];
}
