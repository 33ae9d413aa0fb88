import { randomUUID } from 'node:crypto';
import type { CommandService } from '@shiftcover/command-api';
import { type Actor, easternToday, nextDate, type ShiftCommand, shiftInterval } from '@shiftcover/domain';
import { attempt, post, slots } from './demo-steps';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Cast {
  admin: Actor;
  system: Actor;
  staff: Array<{ userId: string; actor: Actor }>;
}

/**
 * The four weeks before yesterday, each step decided at the time it would have happened, so the
 * events carry the times that coverage analytics measure: posted days ahead, claimed and approved
 * hours later; some drops (one in ten with under 24 hours' notice), some assignments, a transfer,
 * and some shifts nobody took. Every shift is then completed or expired as the timers would have.
 */
export async function seedHistory(service: CommandService, cast: Cast, residences: string[], now: Date) {
  const { admin, system, staff } = cast;
  const last = easternToday(new Date(now.getTime() - 2 * DAY_MS));
  let n = 0;
  for (let date = easternToday(new Date(now.getTime() - 29 * DAY_MS)); date <= last; date = nextDate(date)) {
    for (const [i, slot] of slots.entries()) {
      n += 1;
      const location = residences[(n + i) % residences.length]!;
      if (location === 'Day Program' && slot.type !== 'AM') continue;
      const shiftId = randomUUID();
      const { start, end } = shiftInterval(date, slot.startTime, slot.endTime);
      /** The moment `hours` before the shift starts. */
      const before = (hours: number) => new Date(start.getTime() - hours * HOUR_MS);
      const as = (actor: Actor, hours: number) => ({ actor, now: before(hours) });
      const step = (command: ShiftCommand, actor: Actor, hours: number) =>
        attempt(service, command, as(actor, hours));
      const ref = { shiftId };

      const postedAhead = 24 * (2 + (n % 6)) + (n % 5) * 3;
      const priority = n % 9 === 0 ? 'urgent' : 'open';
      if (!(await step(post(shiftId, location, date, slot, priority, null), admin, postedAhead))) continue;
      const worker = staff[n % staff.length]!;
      const colleague = staff[(n + 2) % staff.length]!;
      const claimedAhead = postedAhead - 1 - ((n * 7) % 30);
      const approvedAhead = claimedAhead - 0.5 - (n % 4) * 1.5;
      const story = n % 10;

      if (story === 4) {
        const assignment = { ...ref, staffId: worker.userId, assigneeRole: 'staff' as const };
        await step({ type: 'AssignShift', data: assignment }, admin, 12);
      } else if (story !== 0 && story !== 5) {
        const claimed = await step({ type: 'ClaimShift', data: ref }, worker.actor, claimedAhead);
        // Story 1: a claim nobody approved before the start.
        if (claimed && story !== 1 && (await step({ type: 'ApproveClaim', data: ref }, admin, approvedAhead))) {
          if (story === 2) {
            // Dropped with ten hours' notice, taken by a colleague in time.
            await step({ type: 'RequestDrop', data: ref }, worker.actor, 10);
            await step({ type: 'ApproveDrop', data: ref }, admin, 9);
            await step({ type: 'ClaimShift', data: ref }, colleague.actor, 7);
            await step({ type: 'ApproveClaim', data: ref }, admin, 6);
          } else if (story === 3 && approvedAhead > 30) {
            // Dropped a day ahead and left open.
            await step({ type: 'RequestDrop', data: ref }, worker.actor, 30);
            await step({ type: 'ApproveDrop', data: ref }, admin, 28);
          } else if (story === 6) {
            const transfer = { ...ref, transferId: `${shiftId}.${randomUUID().slice(0, 8)}` };
            const offer = { ...transfer, toUserId: colleague.userId, recipientRole: 'staff' as const, message: null };
            if (await step({ type: 'RequestTransfer', data: offer }, worker.actor, 8))
              await step({ type: 'AcceptTransfer', data: transfer }, colleague.actor, 6);
          }
        }
      }
      const settled = { actor: system, now: new Date(end.getTime() + HOUR_MS) };
      if (!(await attempt(service, { type: 'CompleteShift', data: ref }, settled)))
        await attempt(service, { type: 'ExpireShift', data: ref }, settled);
    }
  }
}
