import { randomUUID } from 'node:crypto';
import type { CommandService } from '@shiftcover/command-api';
import {
  type Actor,
  easternToday,
  nextDate,
  type ShiftCommand,
  type ShiftType,
  shiftInterval,
} from '@shiftcover/domain';
import { attempt, post, slots } from './demo-steps';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Shifts told at once: each has streams of its own, so the seed waits on the database less. */
const AT_ONCE = 12;

interface Person {
  userId: string;
  actor: Actor;
}

interface Cast {
  admin: Actor;
  system: Actor;
  staff: Person[];
}

interface PastShift {
  n: number;
  location: string;
  date: string;
  slot: { startTime: string; endTime: string; type: ShiftType };
}

/**
 * One past shift's story, every step decided at the time it would have happened; whether someone
 * held it at the end. By `n`: posted two to seven days ahead, claimed and approved hours later. Of
 * every eleven, one is left open, one claimed but never approved, one dropped with ten hours'
 * notice and taken again, one dropped a day ahead and left open, one assigned, one handed to a
 * colleague.
 */
async function tell(
  service: CommandService,
  { admin, staff }: Cast,
  shift: PastShift,
  shiftId: string,
): Promise<boolean> {
  const { n, location, date, slot } = shift;
  const ref = { shiftId };
  const { start } = shiftInterval(date, slot.startTime, slot.endTime);
  /** The command, decided by `actor` `hours` before the shift starts. */
  const step = (command: ShiftCommand, actor: Actor, hours: number) =>
    attempt(service, command, { actor, now: new Date(start.getTime() - hours * HOUR_MS) });
  const worker = staff[n % staff.length]!;
  const colleague = staff[(n + 2) % staff.length]!;
  const postedAhead = 24 * (2 + (n % 6)) + (n % 5) * 3;
  const claimedAhead = postedAhead - 1 - ((n * 7) % 30);
  const approvedAhead = claimedAhead - 0.5 - (n % 4) * 1.5;
  // Eleven stories: a cycle the residences' own (ten shifts in four days) does not keep in step with.
  const story = n % 11;

  const priority = n % 9 === 0 ? 'urgent' : 'open';
  if (!(await step(post(shiftId, location, date, slot, priority, null), admin, postedAhead))) return false;
  if (story === 0) return false;
  if (story === 4) {
    const assignment = { ...ref, staffId: worker.userId, assigneeRole: 'staff' as const };
    return step({ type: 'AssignShift', data: assignment }, admin, 12);
  }
  if (!(await step({ type: 'ClaimShift', data: ref }, worker.actor, claimedAhead)) || story === 1)
    return false;
  if (!(await step({ type: 'ApproveClaim', data: ref }, admin, approvedAhead))) return false;
  if (story === 2) {
    if (!(await step({ type: 'RequestDrop', data: ref }, worker.actor, 10))) return true;
    if (!(await step({ type: 'ApproveDrop', data: ref }, admin, 9))) return true;
    if (!(await step({ type: 'ClaimShift', data: ref }, colleague.actor, 7))) return false;
    return step({ type: 'ApproveClaim', data: ref }, admin, 6);
  }
  if (story === 3 && approvedAhead > 30) {
    if (!(await step({ type: 'RequestDrop', data: ref }, worker.actor, 30))) return true;
    return !(await step({ type: 'ApproveDrop', data: ref }, admin, 28));
  }
  if (story === 5) {
    const transfer = { ...ref, transferId: `${shiftId}.${randomUUID().slice(0, 8)}` };
    const offer = { ...transfer, toUserId: colleague.userId, recipientRole: 'staff' as const, message: null };
    if (await step({ type: 'RequestTransfer', data: offer }, worker.actor, 8))
      await step({ type: 'AcceptTransfer', data: transfer }, colleague.actor, 6);
  }
  return true;
}

/**
 * The four weeks before yesterday, so coverage analytics have a month to show: the events carry
 * the times of the story, not of the seed. Every shift is then completed or expired, an hour after
 * its end, as the timers would have done.
 */
export async function seedHistory(service: CommandService, cast: Cast, residences: string[], now: Date) {
  const shifts: PastShift[] = [];
  const last = easternToday(new Date(now.getTime() - 2 * DAY_MS));
  let k = 0;
  for (let date = easternToday(new Date(now.getTime() - 29 * DAY_MS)); date <= last; date = nextDate(date)) {
    for (const slot of slots) {
      const location = residences[k++ % residences.length]!;
      if (location !== 'Day Program' || slot.type === 'AM')
        shifts.push({ n: shifts.length + 1, location, date, slot });
    }
  }
  const live = async (shift: PastShift) => {
    const shiftId = randomUUID();
    const held = await tell(service, cast, shift, shiftId);
    const { end } = shiftInterval(shift.date, shift.slot.startTime, shift.slot.endTime);
    const settled = { actor: cast.system, now: new Date(end.getTime() + HOUR_MS) };
    await attempt(service, { type: held ? 'CompleteShift' : 'ExpireShift', data: { shiftId } }, settled);
  };
  for (let i = 0; i < shifts.length; i += AT_ONCE) await Promise.all(shifts.slice(i, i + AT_ONCE).map(live));
}
