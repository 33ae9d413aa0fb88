import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type CommandContext,
  easternToday,
  nextDate,
  previousDate,
  releasesAfter,
  reservationNeeded,
  type ScheduleCommand,
  type ScheduleState,
  type ShiftCommand,
  type ShiftState,
  scheduleDecider,
  shiftDecider,
  shiftInterval,
  shiftPresets,
  streams,
} from '@shiftcover/domain';
import type { CommandHandler } from '@shiftcover/eventstore';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Shifts written at once: enough waiting commits for PostgreSQL to flush them together. */
const CONCURRENCY = 32;
const PRESETS = Object.values(shiftPresets);
const TIMERS: Actor = { kind: 'system', name: 'timers' };

export interface YearShape {
  residences: string[];
  /** Days of history before today, oldest last. */
  pastDays: number;
  /** Days after today with shifts still ahead of them. */
  upcomingDays: number;
  /** Staff ids: four days' worth of shifts, so that nobody works two shifts in a row. */
  staff: string[];
  adminId: string;
}

/** A command and when it was sent, by whom. */
type Step = { command: ShiftCommand; at: Date; actor: Actor };

/**
 * A care organisation's shifts, written as the product would have written them: each command is
 * decided by the real deciders at the moment it would have been sent (the schedule reservation
 * first, as the command service does), and appended through the command handler, 32 shifts at a
 * time. The days ahead come first, then the history, newest first, so that each size the store
 * passes through holds the same weeks ahead and only more history.
 */
export class YearOfShifts {
  private readonly days: { date: string; ahead: boolean }[] = [];
  private readonly schedules = new Map<
    string,
    { state: ScheduleState; revision?: bigint; tail: Promise<void> }
  >();
  private written = 0;

  constructor(
    private readonly handler: CommandHandler,
    private readonly shape: YearShape,
    private readonly now = new Date(),
  ) {
    const today = easternToday(now);
    for (let date = today, i = 0; i < shape.upcomingDays; i++) {
      date = nextDate(date);
      this.days.push({ date, ahead: true });
    }
    for (let date = today, i = 0; i < shape.pastDays; i++) {
      date = previousDate(date);
      this.days.push({ date, ahead: false });
    }
  }

  get events(): number {
    return this.written;
  }

  get done(): boolean {
    return this.days.length === 0;
  }

  /** Writes whole days until at least `events` events are stored by this fill, or the year is written. */
  async fillTo(events: number): Promise<void> {
    while (this.written < events && this.days.length > 0) {
      const { date, ahead } = this.days.shift()!;
      const shifts = this.shape.residences.flatMap((location, r) =>
        PRESETS.map((preset, p) => ({ location, preset, slot: r * PRESETS.length + p })),
      );
      for (let i = 0; i < shifts.length; i += CONCURRENCY) {
        await Promise.all(
          shifts.slice(i, i + CONCURRENCY).map(({ location, preset, slot }) => {
            const steps = this.lifeOf(date, ahead, location, preset, slot);
            return this.write(steps);
          }),
        );
      }
    }
  }

  /** The commands one shift receives in its life, by a mix that a year of care homes might show. */
  private lifeOf(
    date: string,
    ahead: boolean,
    location: string,
    preset: (typeof PRESETS)[number],
    slot: number,
  ): Step[] {
    const shiftId = randomUUID();
    const { start, end } = shiftInterval(date, preset.startTime, preset.endTime);
    const { staff, adminId } = this.shape;
    // Each day takes the next quarter of the staff: nobody holds two shifts within a day of each other.
    const dayNumber = Date.parse(date) / DAY;
    const holder = staff[(dayNumber * PRESETS.length * this.shape.residences.length + slot) % staff.length]!;
    const cover = staff[(staff.indexOf(holder) + staff.length / 2) % staff.length]!;
    const admin: Actor = { kind: 'user', userId: adminId, role: 'admin', superAdmin: true };
    const person = (userId: string): Actor => ({ kind: 'user', userId, role: 'staff', superAdmin: false });
    const before = (hours: number) => new Date(start.getTime() - hours * HOUR);
    const ref = { shiftId };
    const transferId = randomUUID();
    const dice = (slot * 7919 + dayNumber * 104_729) % 100;

    const { startTime, endTime, type } = preset;
    const details = { shiftId, location, date, startTime, endTime, type, status: 'open' as const };
    const steps: Step[] = [];
    const add = (command: ShiftCommand, at: Date, actor: Actor) => steps.push({ command, at, actor });
    add({ type: 'PostShift', data: { ...details, requirements: null, notes: null } }, before(14 * 24), admin);
    if (dice % 3 === 0) {
      const notes = 'Handover at the nurses’ station.';
      add({ type: 'UpdateShift', data: { ...details, requirements: null, notes } }, before(13 * 24), admin);
    }
    const claimAndApprove = (userId: string, hoursBefore: number) => {
      add({ type: 'ClaimShift', data: ref }, before(hoursBefore), person(userId));
      add({ type: 'ApproveClaim', data: ref }, before(hoursBefore - 2), admin);
    };
    if (dice < 4)
      add(
        { type: 'MarkUrgent', data: { ...ref, priority: dice < 1 ? 'emergency' : 'urgent' } },
        before(200),
        admin,
      );
    if (ahead && dice < 35) return this.sent(steps); // still open
    if (dice >= 8 && dice < 10) {
      add({ type: 'ClaimShift', data: ref }, before(120), person(holder));
      add({ type: 'DenyClaim', data: ref }, before(118), admin);
    } else if (ahead && dice < 50) {
      add({ type: 'ClaimShift', data: ref }, before(100), person(holder)); // awaiting approval
      return this.sent(steps);
    } else if (dice >= 10) {
      claimAndApprove(holder, 150);
      // Ahead, a few holders are still waiting on a drop or a transfer; behind, each was settled.
      const [dropBelow, transferBelow] = ahead ? [55, 60] : [20, 30];
      if (dice < dropBelow) {
        add({ type: 'RequestDrop', data: ref }, before(72), person(holder));
        if (!ahead) {
          add({ type: 'ApproveDrop', data: ref }, before(70), admin);
          claimAndApprove(cover, 60);
        }
      } else if (dice < transferBelow) {
        const offer = { ...ref, transferId, toUserId: cover, recipientRole: 'staff' as const, message: null };
        add({ type: 'RequestTransfer', data: offer }, before(72), person(holder));
        if (!ahead) add({ type: 'AcceptTransfer', data: { shiftId, transferId } }, before(60), person(cover));
      }
      if (!ahead) {
        add({ type: 'RemindHolder', data: ref }, before(11), TIMERS);
        // Yesterday's late and overnight shifts may not be due for completion yet.
        const completion = new Date(end.getTime() + 1.5 * HOUR);
        if (this.due(completion)) add({ type: 'CompleteShift', data: ref }, completion, TIMERS);
        return this.sent(steps);
      }
    }
    const expiry = new Date(end.getTime() + 60_000);
    if (!ahead && dice < 10 && this.due(expiry)) add({ type: 'ExpireShift', data: ref }, expiry, TIMERS);
    return this.sent(steps);
  }

  /** Whether a timer's step at `at` has come, with room for the minutes `sent` may move steps back by. */
  private due(at: Date): boolean {
    return at.getTime() < this.now.getTime() - HOUR;
  }

  /** Nothing is sent after now: a step planned later is moved to just before now, in order. */
  private sent(steps: Step[]): Step[] {
    const latest = this.now.getTime() - 60_000;
    return steps.map((step, i) => ({
      ...step,
      at: new Date(Math.min(step.at.getTime(), latest - (steps.length - i) * 60_000)),
    }));
  }

  /** Decides and appends each step, with the schedule's reservation before and release after it. */
  private async write(steps: Step[]): Promise<void> {
    let state: ShiftState = shiftDecider.initialState();
    let revision: bigint | undefined;
    for (const { command, at, actor } of steps) {
      const context: CommandContext = { actor, now: at };
      const reservation = reservationNeeded(command, state, context);
      if (reservation) await this.onSchedule({ type: 'ReserveTime', data: reservation }, context);
      const events = shiftDecider.decide(command, state, context);
      if (events.length === 0) continue;
      const shiftId = command.data.shiftId;
      await this.handler.append(streams.shift(shiftId), events, revision ?? 'no_stream', context, {
        commandId: randomUUID(),
      });
      revision = (revision ?? -1n) + BigInt(events.length);
      this.written += events.length;
      const released = releasesAfter(events, state);
      state = events.reduce(shiftDecider.evolve, state);
      for (const { userId } of released) {
        await this.onSchedule({ type: 'ReleaseTime', data: { userId, shiftId } }, context);
      }
    }
  }

  /** A person's schedule takes one command at a time, in the order the shifts send them. */
  private onSchedule(command: ScheduleCommand, context: CommandContext): Promise<void> {
    const userId = command.data.userId;
    const schedule = this.schedules.get(userId) ?? {
      state: scheduleDecider.initialState(),
      tail: Promise.resolve(),
    };
    this.schedules.set(userId, schedule);
    schedule.tail = schedule.tail.then(async () => {
      const events = scheduleDecider.decide(command, schedule.state, context);
      if (events.length === 0) return;
      await this.handler.append(streams.schedule(userId), events, schedule.revision ?? 'no_stream', context, {
        commandId: randomUUID(),
      });
      schedule.revision = (schedule.revision ?? -1n) + BigInt(events.length);
      schedule.state = events.reduce(scheduleDecider.evolve, schedule.state);
      this.written += events.length;
    });
    return schedule.tail;
  }
}
