import { z } from 'zod';
import { requireActorCan } from '../permissions/refusals';
import {
  type Credential,
  coversUntil,
  instantsOf,
  type PersonRecord,
  type RuleBreach,
  RuleRefusal,
  ruleBreaches,
  type TimeOff,
  workingTimeRuleCodes,
} from '../safety/checks';
import { carryHeldIndex, heldShift, heldWithin, indexHeldTimes } from '../safety/held-times';
import { DEFAULT_WORKING_TIME_RULES, type VersionedRules } from '../safety/working-time';
import type { CommandContext, Decider } from '../shared/decider';
import { reject } from '../shared/errors';
import { daysFrom, easternToday } from '../time/eastern';
import { formatShiftDate, timeRangeLabel } from '../time/labels';

const label = z.object({
  location: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});

/** An administrator's reason for assigning against a working-time rule (docs/product.md §10.3). */
export interface RuleOverride {
  reason: string;
}

export const reserveTimeSchema = z.object({
  userId: z.string().min(1),
  shiftId: z.string().min(1),
  start: z.iso.datetime(),
  end: z.iso.datetime(),
  label,
  /** The credentials the shift needs, by name. */
  requiredCredentials: z.array(z.string()).optional(),
  /** Reservations the caller found abandoned (their shift is not this person's): released first. */
  releaseStale: z.array(z.string()).optional(),
  override: z.object({ reason: z.string() }).optional(),
});
export type ReserveTimeData = z.infer<typeof reserveTimeSchema>;

type Person = { userId: string };

/** How many days before a credential's last day its holder and the admins are told (§10.1). */
export const CREDENTIAL_NOTICE_DAYS = [30, 7] as const;
export type NoticeDays = (typeof CREDENTIAL_NOTICE_DAYS)[number];

export type ScheduleCommand =
  /** `rules`: the working-time rules in force, the defaults when not given. */
  | { type: 'ReserveTime'; data: ReserveTimeData & { rules?: VersionedRules } }
  | { type: 'ReleaseTime'; data: Person & { shiftId: string } }
  | { type: 'RecordCredential'; data: Person & Credential }
  | { type: 'RemoveCredential'; data: Person & { credentialId: string } }
  | { type: 'RecordTimeOff'; data: Person & TimeOff }
  | { type: 'CancelTimeOff'; data: Person & { timeOffId: string } }
  | { type: 'NoticeCredentialExpiry'; data: Person & { credentialId: string; daysBefore: NoticeDays } };

/** What an override set aside: the rules broken, in figures, under which version of the rules. */
export interface RecordedOverride extends RuleOverride {
  breaches: RuleBreach[];
  rulesVersion: number;
}

type At = { at: string };
export type ScheduleEvent =
  | {
      type: 'TimeReserved';
      data: Omit<ReserveTimeData, 'releaseStale' | 'override'> & { override?: RecordedOverride } & At;
    }
  | { type: 'TimeReleased'; data: Person & { shiftId: string } & At }
  /** A credential recorded; one of the same name it `replaces` (a renewal) is gone. */
  | { type: 'CredentialRecorded'; data: Person & Credential & { replaces: string[] } & At }
  | { type: 'CredentialRemoved'; data: Person & { credentialId: string; name: string } & At }
  | { type: 'TimeOffRecorded'; data: Person & TimeOff & At }
  | { type: 'TimeOffCancelled'; data: Person & { timeOffId: string } & At }
  /** The person and their admins are told a credential's last day is near (docs/product.md §10.1). */
  | {
      type: 'CredentialExpiryNoticed';
      data: Person & { credentialId: string; name: string; expiresOn: string; daysBefore: NoticeDays } & At;
    };

export interface Reservation {
  shiftId: string;
  start: string;
  end: string;
  label: z.infer<typeof label>;
  requiredCredentials?: string[];
  override?: RecordedOverride;
  at: string;
}

/**
 * A person's schedule: the time of every shift they hold, their credentials and their time off,
 * in one stream so that every rule a new shift must meet is decided on one consistent state.
 */
export interface ScheduleState extends PersonRecord {
  reservations: Reservation[];
  credentials: Array<Credential & { recordedAt: string }>;
  timeOff: Array<TimeOff & { recordedAt: string }>;
  /** The expiry notices given, as `<credentialId>:<days>`: each is given once. */
  expiryNotices: string[];
}

export function conflictMessage(r: Pick<Reservation, 'label'>): string {
  const { location, date, startTime, endTime } = r.label;
  return `Scheduling conflict: You already have a shift scheduled at this time (${location}, ${formatShiftDate(date)}, ${timeRangeLabel(startTime, endTime)}).`;
}

/** The reservation `wanted` overlaps, if any, leaving aside those about to be released. */
export function overlapping(
  wanted: Pick<Reservation, 'shiftId' | 'start' | 'end'>,
  held: readonly Reservation[],
): Reservation | undefined {
  const time = { start: Date.parse(wanted.start), end: Date.parse(wanted.end) };
  return heldWithin(held, time.start, time.end).find((r) => {
    if (r.shiftId === wanted.shiftId) return false;
    const other = instantsOf(r);
    return other.start < time.end && time.start < other.end;
  });
}

const isSelf = (context: CommandContext, userId: string) =>
  context.actor.kind === 'user' && context.actor.userId === userId;

function reserve(
  data: ReserveTimeData & { rules?: VersionedRules },
  state: ScheduleState,
  context: CommandContext,
): ScheduleEvent[] {
  const at = context.now.toISOString();
  const {
    releaseStale = [],
    rules = { ...DEFAULT_WORKING_TIME_RULES, version: 0 },
    override,
    ...wanted
  } = data;
  const { userId } = wanted;
  const stale =
    releaseStale.length === 0
      ? []
      : state.reservations.filter((r) => releaseStale.includes(r.shiftId) && r.shiftId !== wanted.shiftId);
  // Without stale time to leave out, the schedule's own list, which it can search by time.
  const kept = stale.length === 0 ? state.reservations : state.reservations.filter((r) => !stale.includes(r));
  const conflict = overlapping(wanted, kept);
  if (conflict) reject('shift_conflict', conflictMessage(conflict));
  // Time the person already holds was judged when they took it (an edit of its notes, or the
  // approval of their own claim as an assignment, reserves it again): only its credentials are new.
  // Held at the same time, it is among the times that meet the wanted one.
  const held = heldWithin(state.reservations, Date.parse(wanted.start), Date.parse(wanted.end)).find(
    (r) => r.shiftId === wanted.shiftId,
  );
  const alreadyHeld = held?.start === wanted.start && held.end === wanted.end;
  const breaches = ruleBreaches(
    wanted,
    { ...state, reservations: kept },
    rules,
    isSelf(context, userId),
  ).filter((b) => !alreadyHeld || b.code === 'missing_credential');
  const overridable = (b: RuleBreach) => override !== undefined && workingTimeRuleCodes.includes(b.code);
  const refusal = breaches.find((b) => !overridable(b));
  if (refusal) throw new RuleRefusal(refusal, rules.version);
  // Time held by an override keeps its record when it is reserved anew.
  const heldOverride = alreadyHeld && held.override ? { override: held.override } : {};
  const recorded =
    override && breaches.length > 0
      ? { override: { ...override, breaches, rulesVersion: rules.version } }
      : heldOverride;
  return [
    ...stale.map((r): ScheduleEvent => ({ type: 'TimeReleased', data: { userId, shiftId: r.shiftId, at } })),
    { type: 'TimeReserved', data: { ...wanted, ...recorded, at } },
  ];
}

/** A held shift still ahead or under way that would lose a credential it needs, if any. */
function shiftLeftUncovered(
  state: ScheduleState,
  name: string,
  remaining: readonly Credential[],
  now: Date,
): Reservation | undefined {
  return state.reservations.find(
    (r) =>
      new Date(r.end) > now &&
      (r.requiredCredentials ?? []).includes(name) &&
      !remaining.some((c) => c.name === name && coversUntil(c, new Date(r.end))),
  );
}

function credentialInUse(name: string, shift: Reservation): never {
  const { location, date, startTime, endTime } = shift.label;
  reject(
    'credential_in_use',
    `${name} is needed for a shift this person holds (${location}, ${formatShiftDate(date)}, ${timeRangeLabel(startTime, endTime)}): reassign it first`,
  );
}

function recordCredential(
  data: Person & Credential,
  state: ScheduleState,
  context: CommandContext,
): ScheduleEvent[] {
  requireActorCan(context.actor, 'manageCredentials');
  const replaced = state.credentials.filter((c) => c.name === data.name);
  const remaining = [...state.credentials.filter((c) => c.name !== data.name), data];
  const uncovered = shiftLeftUncovered(state, data.name, remaining, context.now);
  if (uncovered) credentialInUse(data.name, uncovered);
  const { userId, credentialId, name, expiresOn } = data;
  const replaces = replaced.map((c) => c.credentialId);
  const at = context.now.toISOString();
  return [{ type: 'CredentialRecorded', data: { userId, credentialId, name, expiresOn, replaces, at } }];
}

function removeCredential(
  data: Person & { credentialId: string },
  state: ScheduleState,
  context: CommandContext,
): ScheduleEvent[] {
  requireActorCan(context.actor, 'manageCredentials');
  const credential = state.credentials.find((c) => c.credentialId === data.credentialId);
  if (!credential) reject('not_found', 'Credential not found');
  const remaining = state.credentials.filter((c) => c !== credential);
  const uncovered = shiftLeftUncovered(state, credential.name, remaining, context.now);
  if (uncovered) credentialInUse(credential.name, uncovered);
  const { userId, credentialId } = data;
  return [
    {
      type: 'CredentialRemoved',
      data: { userId, credentialId, name: credential.name, at: context.now.toISOString() },
    },
  ];
}

/** Time off is the person's own to record and cancel. */
function requireSelf(context: CommandContext, userId: string): void {
  if (context.actor.kind === 'user' && context.actor.userId !== userId)
    reject('forbidden', 'You can only change your own time off');
}

function recordTimeOff(data: Person & TimeOff, context: CommandContext): ScheduleEvent[] {
  requireSelf(context, data.userId);
  if (data.endDate < data.startDate) reject('invalid', 'The end date must be on or after the start date');
  const { userId, timeOffId, startDate, endDate, note } = data;
  return [
    {
      type: 'TimeOffRecorded',
      data: { userId, timeOffId, startDate, endDate, note, at: context.now.toISOString() },
    },
  ];
}

function cancelTimeOff(
  data: Person & { timeOffId: string },
  state: ScheduleState,
  context: CommandContext,
): ScheduleEvent[] {
  requireSelf(context, data.userId);
  if (!state.timeOff.some((t) => t.timeOffId === data.timeOffId)) reject('not_found', 'Time off not found');
  const { userId, timeOffId } = data;
  return [{ type: 'TimeOffCancelled', data: { userId, timeOffId, at: context.now.toISOString() } }];
}

/**
 * The notice a credential is due, the nearer one when both are: none before 30 days ahead of its
 * last day, none once it is past.
 */
export function noticeDue(expiresOn: string, now: Date): NoticeDays | null {
  const daysLeft = daysFrom(easternToday(now), expiresOn);
  if (daysLeft < 0) return null;
  return CREDENTIAL_NOTICE_DAYS.filter((days) => daysLeft <= days).at(-1) ?? null;
}

function noticeExpiry(
  data: Person & { credentialId: string; daysBefore: NoticeDays },
  state: ScheduleState,
  context: CommandContext,
): ScheduleEvent[] {
  const credential = state.credentials.find((c) => c.credentialId === data.credentialId);
  if (!credential?.expiresOn || noticeDue(credential.expiresOn, context.now) !== data.daysBefore) return [];
  if (state.expiryNotices.includes(`${data.credentialId}:${data.daysBefore}`)) return [];
  const { userId, credentialId, daysBefore } = data;
  const { name, expiresOn } = credential;
  return [
    {
      type: 'CredentialExpiryNoticed',
      data: { userId, credentialId, name, expiresOn, daysBefore, at: context.now.toISOString() },
    },
  ];
}

/**
 * The reservations with the shift's taken out and `added` (when given) put last, the same list when
 * there is nothing to change; the index of their times is carried along (`carryHeldIndex`). A list
 * holds a shift at most once, so taking it out is taking out the one reservation found for it.
 */
function replaceHeld(reservations: Reservation[], shiftId: string, added?: Reservation): Reservation[] {
  const held = heldShift(reservations, shiftId);
  if (!held && !added) return reservations;
  const next = reservations.slice();
  if (held) next.splice(reservations.indexOf(held), 1);
  if (added) next.push(added);
  carryHeldIndex(reservations, next, held, added);
  return next;
}

type TimeReservedData = Extract<ScheduleEvent, { type: 'TimeReserved' }>['data'];

/** The held time a reservation event records: its data, less whose schedule it is. */
function reservationOf({ userId: _userId, ...reservation }: TimeReservedData): Reservation {
  return reservation;
}

/**
 * Fewer events than this are folded step by step even when given together: a remembered schedule
 * brought up to date by the few events appended elsewhere since, where listing and indexing the
 * whole history again costs more than the steps (at 5,000 held shifts, eight events 3.7 ms at once
 * against 0.3 to 0.4 ms step by step; the two meet between 32 and 64 events at 250, 1,000 and 5,000
 * held, since the step found its shift by shift, and between 16 and 32 before).
 */
const FOLDED_AT_ONCE_FROM = 32;

/**
 * Many events folded at once, to the state the fold step by step gives: the reservations kept by
 * shift in a map, each one reserved again or released taken out and (when reserved) put last as
 * `replaceHeld` puts it, then listed and indexed once. The step copies the whole list for each
 * event, so a person's history folded step by step takes time that grows with its square; this
 * way, a load of it grows with its length. The other events fold as the step folds them; with no
 * reservation changed, the list (and its index) stays the state's own.
 */
export function foldAtOnce(state: ScheduleState, events: readonly ScheduleEvent[]): ScheduleState {
  let held: Map<string, Reservation> | undefined;
  const changing = () => {
    held ??= new Map(state.reservations.map((r) => [r.shiftId, r]));
    return held;
  };
  let rest = state;
  for (const event of events) {
    switch (event.type) {
      case 'TimeReserved': {
        const reservation = reservationOf(event.data);
        const list = changing();
        list.delete(reservation.shiftId);
        list.set(reservation.shiftId, reservation);
        break;
      }
      case 'TimeReleased':
        if (held || heldShift(state.reservations, event.data.shiftId)) {
          changing().delete(event.data.shiftId);
        }
        break;
      default:
        rest = scheduleDecider.evolve(rest, event);
    }
  }
  if (!held) return rest;
  const reservations = [...held.values()];
  indexHeldTimes(reservations);
  return { ...rest, reservations };
}

/**
 * A schedule's state made again from its JSON (`JSON.stringify` of the state, kept beside the
 * stream), its reservations indexed as a load's fold indexes them. Throws when the JSON is not a
 * schedule's state (or holds a shift twice), so that the stream is folded from its first event instead.
 */
export function restoreSchedule(json: unknown): ScheduleState {
  const state = json as ScheduleState;
  const lists = [state?.reservations, state?.credentials, state?.timeOff, state?.expiryNotices];
  if (!lists.every(Array.isArray)) throw new Error('not the state of a schedule');
  // The fold holds a shift once at most, and its steps rely on it (`replaceHeld`).
  const shifts = new Set(state.reservations.map((r) => r?.shiftId));
  if (shifts.size !== state.reservations.length) throw new Error('not the state of a schedule');
  indexHeldTimes(state.reservations);
  return state;
}

export const scheduleDecider: Decider<ScheduleCommand, ScheduleEvent, ScheduleState> = {
  initialState: () => ({ reservations: [], credentials: [], timeOff: [], expiryNotices: [] }),

  decide(command, state, context) {
    switch (command.type) {
      case 'ReserveTime':
        return reserve(command.data, state, context);
      case 'ReleaseTime': {
        const { userId, shiftId } = command.data;
        return heldShift(state.reservations, shiftId)
          ? [{ type: 'TimeReleased', data: { userId, shiftId, at: context.now.toISOString() } }]
          : [];
      }
      case 'RecordCredential':
        return recordCredential(command.data, state, context);
      case 'RemoveCredential':
        return removeCredential(command.data, state, context);
      case 'RecordTimeOff':
        return recordTimeOff(command.data, context);
      case 'CancelTimeOff':
        return cancelTimeOff(command.data, state, context);
      case 'NoticeCredentialExpiry':
        return noticeExpiry(command.data, state, context);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TimeReserved': {
        const reservation = reservationOf(event.data);
        return { ...state, reservations: replaceHeld(state.reservations, reservation.shiftId, reservation) };
      }
      case 'TimeReleased':
        return { ...state, reservations: replaceHeld(state.reservations, event.data.shiftId) };
      case 'CredentialRecorded': {
        const { credentialId, name, expiresOn, replaces, at } = event.data;
        const kept = state.credentials.filter((c) => !replaces.includes(c.credentialId));
        return { ...state, credentials: [...kept, { credentialId, name, expiresOn, recordedAt: at }] };
      }
      case 'CredentialRemoved':
        return {
          ...state,
          credentials: state.credentials.filter((c) => c.credentialId !== event.data.credentialId),
        };
      case 'TimeOffRecorded': {
        const { userId: _userId, at, ...off } = event.data;
        return { ...state, timeOff: [...state.timeOff, { ...off, recordedAt: at }] };
      }
      case 'TimeOffCancelled':
        return { ...state, timeOff: state.timeOff.filter((t) => t.timeOffId !== event.data.timeOffId) };
      case 'CredentialExpiryNoticed':
        return {
          ...state,
          expiryNotices: [...state.expiryNotices, `${event.data.credentialId}:${event.data.daysBefore}`],
        };
    }
  },

  evolveAll(state, events) {
    return events.length < FOLDED_AT_ONCE_FROM
      ? events.reduce(scheduleDecider.evolve, state)
      : foldAtOnce(state, events);
  },

  // Version 1: the state as `ScheduleState` has it, reservations in the order the fold keeps them.
  snapshot: { name: 'schedule', version: 1, restore: restoreSchedule },
};
