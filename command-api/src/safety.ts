import {
  type CommandContext,
  type CredentialTypeCommand,
  conflictMessage,
  credentialTypesDecider,
  easternToday,
  type HeldTime,
  isClaimable,
  overlapping,
  reservationFor,
  ruleBreaches,
  type ScheduleCommand,
  type ScheduleEvent,
  type ScheduleState,
  type ShiftState,
  scheduleDecider,
  shiftDecider,
  shiftInterval,
  userDecider,
  type VersionedRules,
  type WhatIfView,
  type WorkingTimeRulesCommand,
  whatIf,
  workingTimeRulesDecider,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace, EventStore } from '@shiftcover/eventstore';
import { streams } from './streams';

export interface Eligibility {
  eligible: boolean;
  reasons: Array<{ code: string; message: string }>;
}

/**
 * The safety rules' commands and what the rules are checked against (docs/product.md §10), read
 * from the streams the reservations decide on, so an answer gives the codes a command would.
 */
export class Safety {
  constructor(private readonly handler: CommandHandler) {}

  /** A credential or a time off recorded or removed, on the person's schedule stream. */
  schedule(command: ScheduleCommand, context: CommandContext, trace: CommandTrace) {
    return this.handler.handle(
      streams.schedule(command.data.userId),
      scheduleDecider,
      command,
      context,
      trace,
    );
  }

  setRules(command: WorkingTimeRulesCommand, context: CommandContext, trace: CommandTrace) {
    return this.handler.handle(streams.workingTimeRules(), workingTimeRulesDecider, command, context, trace);
  }

  credentialTypes(command: CredentialTypeCommand, context: CommandContext, trace: CommandTrace) {
    return this.handler.handle(streams.credentialTypes(), credentialTypesDecider, command, context, trace);
  }

  async rules(): Promise<VersionedRules> {
    return (await this.handler.load(streams.workingTimeRules(), workingTimeRulesDecider)).state;
  }

  async typeList() {
    return (await this.handler.load(streams.credentialTypes(), credentialTypesDecider)).state.types;
  }

  /** A person's schedule: their held time, credentials and time off. */
  async record(userId: string) {
    return (await this.handler.load(streams.schedule(userId), scheduleDecider)).state;
  }

  /** Whether `userId` may take the shift now: every reason a claim or assignment would be refused. */
  async eligibility(shiftId: string, userId: string, self: boolean, now: Date): Promise<Eligibility | null> {
    const { state: shift } = await this.handler.load(streams.shift(shiftId), shiftDecider);
    if (!shift.exists || shift.deleted) return null;
    const [record, rules] = await Promise.all([this.record(userId), this.rules()]);
    const reasons = reasonsAgainst(shift, userId, record, rules, self, now);
    return { eligible: reasons.length === 0, reasons };
  }

  /**
   * Which of `userIds` may claim the shift now, as `eligibility` would answer for each of them
   * asking for themselves; null when the shift is unknown or deleted. The shift and the rules are
   * read once, each person's schedule once, `atOnce` at a time; a shift that has ended reads no
   * schedule, and one someone holds only its holder's.
   */
  async eligibleAmong(
    shiftId: string,
    userIds: readonly string[],
    now: Date,
    atOnce = 4,
  ): Promise<string[] | null> {
    const { state: shift } = await this.handler.load(streams.shift(shiftId), shiftDecider);
    if (!shift.exists || shift.deleted) return null;
    if (shiftInterval(shift.date, shift.startTime, shift.endTime).end <= now) return [];
    // A shift someone holds is open to no one else: only its holder's schedule is worth reading.
    const candidates = isClaimable(shift) ? userIds : userIds.filter((id) => id === shift.assignedUserId);
    if (candidates.length === 0) return [];
    const rules = await this.rules();
    const eligible: string[] = [];
    for (let i = 0; i < candidates.length; i += atOnce) {
      const group = candidates.slice(i, i + atOnce);
      const records = await Promise.all(group.map((userId) => this.record(userId)));
      group.forEach((userId, k) => {
        if (reasonsAgainst(shift, userId, records[k]!, rules, true, now).length === 0) eligible.push(userId);
      });
    }
    return eligible;
  }
}

/** Every reason `userId` may not take the shift now, given their schedule and the rules. */
function reasonsAgainst(
  shift: ShiftState,
  userId: string,
  record: ScheduleState,
  rules: VersionedRules,
  self: boolean,
  now: Date,
): Eligibility['reasons'] {
  const reasons: Eligibility['reasons'] = [];
  if (shift.assignedUserId !== userId && !isClaimable(shift))
    reasons.push({ code: 'not_claimable', message: 'This shift is no longer available to claim' });
  const wanted = reservationFor(userId, shift);
  if (new Date(wanted.end) <= now)
    reasons.push({ code: 'shift_started', message: 'This shift has already ended' });
  const conflict = overlapping(wanted, record.reservations);
  if (conflict) reasons.push({ code: 'shift_conflict', message: conflictMessage(conflict) });
  for (const { code, message } of ruleBreaches(wanted, record, rules, self)) reasons.push({ code, message });
  return reasons;
}

/** Whether a credential's last day is before today, Eastern time. */
export const isExpired = (expiresOn: string | null, now: Date) =>
  expiresOn !== null && expiresOn < easternToday(now);

const PAGE = 1_000;

/**
 * The time every person held, replayed from the event log: each schedule's reservations as they
 * stand now, shifts worked included (completion keeps their time).
 */
export async function heldTimes(store: EventStore): Promise<Map<string, HeldTime[]>> {
  const held = new Map<string, Map<string, HeldTime>>();
  for (let after = 0n; ; ) {
    const page = await store.readAll(after, PAGE);
    if (page.length === 0) break;
    for (const event of page) {
      if (event.type !== 'TimeReserved' && event.type !== 'TimeReleased') continue;
      const data = event.data as ScheduleEvent['data'] & { userId: string; shiftId: string };
      const person = held.get(data.userId) ?? new Map<string, HeldTime>();
      held.set(data.userId, person);
      if (event.type === 'TimeReleased') person.delete(data.shiftId);
      else person.set(data.shiftId, data as HeldTime);
    }
    after = page.at(-1)!.position;
  }
  return new Map([...held].map(([userId, times]) => [userId, [...times.values()]]));
}

/** People's names, from their own streams; an erased or unknown person has none. */
async function namesOf(handler: CommandHandler, userIds: string[]): Promise<Map<string, string>> {
  const loaded = await Promise.all(userIds.map((id) => handler.load(streams.user(id), userDecider)));
  return new Map(
    loaded.flatMap(({ state }) =>
      state.personal
        ? [[state.userId, `${state.personal.firstName} ${state.personal.lastName}`] as const]
        : [],
    ),
  );
}

/**
 * The what-if of docs/product.md §10.5: the past period under proposed rules, with each person's
 * name, as the API and the CLI answer it. It writes nothing.
 */
export async function replayUnderRules(
  handler: CommandHandler,
  store: EventStore,
  rules: VersionedRules,
  from: Date,
  until: Date,
): Promise<WhatIfView> {
  const report = whatIf(await heldTimes(store), rules, from, until);
  const names = await namesOf(handler, [...new Set(report.violations.map((v) => v.userId))]);
  const nameOf = (userId: string) => names.get(userId) ?? 'Deleted user';
  const { version: _version, ...asked } = rules;
  return {
    ...report,
    rules: asked,
    violations: report.violations.map((v) => ({ ...v, userName: nameOf(v.userId) })),
    byPerson: Object.entries(report.byPerson).map(([userId, violations]) => ({
      userId,
      userName: nameOf(userId),
      violations,
    })),
  };
}
