import { randomUUID } from 'node:crypto';
import {
  type CommandContext,
  heldShift,
  heldWithin,
  type Reservation,
  type ReserveTimeData,
  RuleRefusal,
  releasesAfter,
  reservationNeeded,
  type ScheduleCommand,
  type ScheduleEvent,
  type ScheduleState,
  type ShiftCommand,
  type ShiftEvent,
  type ShiftRefusal,
  type ShiftState,
  scheduleDecider,
  shiftDecider,
  type VersionedRules,
  workingTimeRulesDecider,
} from '@shiftcover/domain';
import type { Alongside, AppendHooks, CommandHandler, CommandTrace } from '@shiftcover/eventstore';
import { RESERVATION_GRACE_MS, streams } from './streams';

/** What each command that gives someone a shift is called in its refusal's record. */
const REFUSED_ACTIONS: Partial<Record<ShiftCommand['type'], ShiftRefusal['action']>> = {
  ClaimShift: 'claim',
  AssignShift: 'assignment',
  AcceptTransfer: 'transfer',
  UpdateShift: 'edit',
};

/**
 * A person's schedule stream reserves the time of every shift they hold, so two overlapping
 * shifts can never both be theirs, however the commands race. Where the store can append to several
 * streams in one transaction (PostgreSQL), the reservation is stored with the shift's own events,
 * each append expecting the revision its decision was made on: both are stored or neither. Where it
 * cannot (EventStoreDB), the reservation is written before the shift's events; if the command then
 * fails, or the process dies in between, the reservation is released or, once older than the grace
 * period, found abandoned by the next reservation that overlaps it (its shift does not name that
 * person as assignee).
 *
 * The same reservation decides the safety rules of docs/product.md §10: the person's credentials
 * and time off are on the schedule stream, read in the same decision, so a credential removed
 * while a claim is in flight either comes first (and the claim is refused) or after (and the
 * removal is refused while the shift needs it). A refusal by a rule is recorded on the shift.
 */
export class Schedules {
  constructor(private readonly handler: CommandHandler) {}

  /**
   * A shift command's steps on the people's schedules: the time it gives someone is reserved with
   * the shift's events, in the same transaction, or before them (and released if their append
   * fails) on a store that appends to one stream at a time; the time it frees is released after.
   */
  around(
    context: CommandContext,
    trace: CommandTrace,
    command?: ShiftCommand,
  ): AppendHooks<ShiftCommand, ShiftEvent, ShiftState> {
    // Reservations made by this execution get ids of their own, so a client retrying the same
    // command after a failure reserves again instead of being taken for a repeat.
    const execution = randomUUID();
    // A command that may reserve time reads the working-time rules beside the shift's stream rather
    // than after it: its first reservation decides on them, any later attempt reads them again.
    let rules = command && REFUSED_ACTIONS[command.type] ? this.workingTimeRules(trace) : undefined;
    const rulesNow = () => {
      const read = rules ?? this.workingTimeRules();
      rules = undefined;
      return read;
    };
    const traceOf = (attempt: number) => ({
      ...trace,
      commandId: `${trace.commandId}#${execution}:${attempt}`,
    });
    return {
      stepsBefore: ({ command, state }) => reservationNeeded(command, state, context) !== null,
      alongside: async ({ command, state, attempt }) => {
        const reservation = reservationNeeded(command, state, context);
        if (!reservation) return undefined;
        const attemptTrace = traceOf(attempt);
        const streamId = streams.schedule(reservation.userId);
        const decide = async (schedule: ScheduleState) => {
          const releaseStale = await this.abandoned(reservation, schedule.reservations, context.now);
          const data = { ...reservation, releaseStale, rules: await rulesNow() };
          return scheduleDecider.decide({ type: 'ReserveTime', data }, schedule, context);
        };
        // On a first attempt, the schedule as this process last left it, when it remembers it: the
        // append expects its revision. An attempt after a lost append, whichever stream moved,
        // reads it. A refusal is only ever decided, and recorded, on the schedule as read.
        let schedule =
          attempt === 1
            ? await this.handler.latest(streamId, scheduleDecider)
            : { ...(await this.handler.load(streamId, scheduleDecider)), recalled: false };
        let events: ScheduleEvent[] | undefined;
        if (schedule.recalled) events = await decide(schedule.state).catch(() => undefined);
        if (!events) {
          schedule = { ...(await this.handler.load(streamId, scheduleDecider)), recalled: false };
          try {
            events = await decide(schedule.state);
          } catch (error) {
            if (error instanceof RuleRefusal)
              await this.recordRefusal(command, reservation.userId, error, context, attemptTrace);
            throw error;
          }
        }
        return {
          streamId,
          decider: scheduleDecider as Alongside['decider'],
          state: schedule.state,
          revision: schedule.revision,
          events,
          trace: { ...attemptTrace, commandId: `${attemptTrace.commandId}:reserve:${reservation.shiftId}` },
        };
      },
      beforeAppend: async ({ command, state, attempt }) => {
        const reservation = reservationNeeded(command, state, context);
        if (!reservation) return undefined;
        const attemptTrace = traceOf(attempt);
        try {
          if (!(await this.reserve(reservation, context, attemptTrace, rulesNow))) return undefined;
        } catch (error) {
          if (error instanceof RuleRefusal)
            await this.recordRefusal(command, reservation.userId, error, context, attemptTrace);
          throw error;
        }
        return () => this.release(reservation.userId, reservation.shiftId, context, attemptTrace);
      },
      afterAppend: async ({ events, state, attempt }) => {
        for (const { userId, shiftId } of releasesAfter(events, state)) {
          await this.release(userId, shiftId, context, traceOf(attempt));
        }
      },
    };
  }

  /** Reserves the time; returns false when this shift was already reserved for the person. */
  private async reserve(
    reservation: ReserveTimeData,
    context: CommandContext,
    trace: CommandTrace,
    rulesNow: () => Promise<VersionedRules>,
  ): Promise<boolean> {
    let alreadyHeld = false;
    const outcome = await this.handler.handle(
      streams.schedule(reservation.userId),
      scheduleDecider,
      async (state): Promise<ScheduleCommand> => {
        alreadyHeld = heldShift(state.reservations, reservation.shiftId) !== undefined;
        const releaseStale = await this.abandoned(reservation, state.reservations, context.now);
        const rules = await rulesNow();
        return { type: 'ReserveTime', data: { ...reservation, releaseStale, rules } };
      },
      context,
      { ...trace, commandId: `${trace.commandId}:reserve:${reservation.shiftId}` },
    );
    return !(outcome.duplicate || alreadyHeld);
  }

  /** What a shift command reads besides the shift, read ahead of it (`CommandHandler.readAhead`). */
  readsAhead(type: ShiftCommand['type']) {
    return REFUSED_ACTIONS[type]
      ? [{ streamId: streams.workingTimeRules(), decider: workingTimeRulesDecider }]
      : [];
  }

  /**
   * The working-time rules as they stand now, or as read ahead for this command; a failed read is
   * not left unheard (see `around`).
   */
  private workingTimeRules(trace?: CommandTrace): Promise<VersionedRules> {
    const stream = streams.workingTimeRules();
    const read = (
      trace?.readAhead?.take<VersionedRules>(stream, workingTimeRulesDecider) ??
      this.handler.load(stream, workingTimeRulesDecider)
    ).then(({ state }) => state);
    read.catch(() => undefined);
    return read;
  }

  /** The refused command, as an event on the shift: the rule, its version and the figures. */
  private async recordRefusal(
    command: ShiftCommand,
    userId: string,
    refusal: RuleRefusal,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<void> {
    const { code, message, figures } = refusal.breach;
    const data: ShiftRefusal = {
      userId,
      action: REFUSED_ACTIONS[command.type] ?? 'edit',
      code,
      message,
      rulesVersion: refusal.rulesVersion,
      figures,
    };
    const event = {
      type: 'ShiftRefused',
      data: { shiftId: command.data.shiftId, ...data, at: context.now.toISOString() },
    };
    const recorded = await this.handler.append(streams.shift(command.data.shiftId), [event], 'any', context, {
      ...trace,
      commandId: `${trace.commandId}:refused`,
    });
    refusal.recordedPosition = recorded;
  }

  private async release(
    userId: string,
    shiftId: string,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<void> {
    await this.handler.handle(
      streams.schedule(userId),
      scheduleDecider,
      { type: 'ReleaseTime', data: { userId, shiftId } },
      context,
      { ...trace, commandId: `${trace.commandId}:release:${userId}:${shiftId}` },
    );
  }

  private async abandoned(
    wanted: ReserveTimeData,
    held: readonly Reservation[],
    now: Date,
  ): Promise<string[]> {
    const stale: string[] = [];
    for (const r of heldWithin(held, Date.parse(wanted.start), Date.parse(wanted.end))) {
      if (r.shiftId === wanted.shiftId || !(r.start < wanted.end && wanted.start < r.end)) continue;
      if (now.getTime() - Date.parse(r.at) < RESERVATION_GRACE_MS) continue;
      const { state: shift } = await this.handler.load(streams.shift(r.shiftId), shiftDecider);
      if (shift.assignedUserId !== wanted.userId) stale.push(r.shiftId);
    }
    return stale;
  }
}
