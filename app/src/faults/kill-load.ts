import { randomUUID } from 'node:crypto';
import type { CommandService } from '@shiftcover/command-api';
import {
  type Actor,
  easternInstant,
  easternToday,
  nextDate,
  previousDate,
  type ShiftCommand,
} from '@shiftcover/domain';

interface Person {
  userId: string;
  actor: Actor;
}

const daysFrom = (date: string, days: number) => {
  let day = date;
  for (let i = 0; i < Math.abs(days); i++) day = days > 0 ? nextDate(day) : previousDate(day);
  return day;
};

/**
 * A team at work, round after round: a shift posted (mailed to the staff), claimed (to the
 * admins), approved or denied (to the claimant), then dropped or handed over (to those
 * concerned). Each round also records a shift that was worked days ago (one in four left open),
 * for the completion timer to settle. The people are all registered first and never change, so
 * who should get which mail depends on the log alone.
 */
export class TeamLoad {
  readonly staff: Person[] = [];
  readonly admins: Person[] = [];
  /** Shifts worked in the past: each must be completed exactly once. */
  readonly worked: string[] = [];
  /** Shifts that ended unfilled: each must expire exactly once. */
  readonly unfilled: string[] = [];
  private rounds = 0;

  constructor(private readonly service: CommandService) {}

  async setUp(): Promise<void> {
    this.admins.push(await this.register('admin', true, true), await this.register('admin', false, false));
    for (let i = 0; i < 2; i++) this.staff.push(await this.register('staff', false, true));
    this.staff.push(await this.register('staff', false, false));
  }

  async round(): Promise<void> {
    const r = this.rounds++;
    const now = new Date();
    const today = easternToday(now);
    const [admin] = this.admins;
    const claimant = this.staff[r % 2]!;
    const colleague = this.staff[(r % 2) + 1]!;
    const shiftId = await this.post(daysFrom(today, 7 + r), r % 5 === 0 ? 'urgent' : 'open', now);
    await this.run({ type: 'ClaimShift', data: { shiftId } }, claimant.actor, now);
    await this.run(
      { type: r % 4 === 2 ? 'DenyClaim' : 'ApproveClaim', data: { shiftId } },
      admin!.actor,
      now,
    );
    if (r % 4 === 0) {
      const transferId = `${shiftId}.t`;
      await this.run(
        {
          type: 'RequestTransfer',
          data: { shiftId, transferId, toUserId: colleague.userId, recipientRole: 'staff', message: null },
        },
        claimant.actor,
        now,
      );
      await this.run(
        { type: r % 8 === 0 ? 'AcceptTransfer' : 'DeclineTransfer', data: { shiftId, transferId } },
        colleague.actor,
        now,
      );
    } else if (r % 4 === 1) {
      await this.run({ type: 'RequestDrop', data: { shiftId } }, claimant.actor, now);
      await this.run(
        { type: r % 8 === 1 ? 'ApproveDrop' : 'DenyDrop', data: { shiftId } },
        admin!.actor,
        now,
      );
    }
    await this.past(daysFrom(today, -2 - r), claimant, r % 4 !== 3);
  }

  /** A shift posted the day before its date, and claimed and approved then when `filled`. */
  private async past(date: string, claimant: Person, filled: boolean) {
    const then = easternInstant(previousDate(date), '09:00');
    const shiftId = await this.post(date, 'open', then);
    if (!filled) {
      this.unfilled.push(shiftId);
      return;
    }
    await this.run({ type: 'ClaimShift', data: { shiftId } }, claimant.actor, then);
    await this.run({ type: 'ApproveClaim', data: { shiftId } }, this.admins[0]!.actor, then);
    this.worked.push(shiftId);
  }

  private async post(date: string, status: 'open' | 'urgent', now: Date): Promise<string> {
    const shiftId = randomUUID();
    await this.run(
      {
        type: 'PostShift',
        data: {
          shiftId,
          location: 'Maple House',
          date,
          startTime: '08:00',
          endTime: '16:00',
          type: 'AM',
          status,
          requirements: null,
          notes: null,
        },
      },
      this.admins[0]!.actor,
      now,
    );
    return shiftId;
  }

  private async run(command: ShiftCommand, actor: Actor, now: Date) {
    await this.service.shift(command, { actor, now }, { commandId: randomUUID() });
  }

  private async register(role: 'admin' | 'staff', superAdmin: boolean, wantsMail: boolean): Promise<Person> {
    const userId = randomUUID();
    const name = `${role}-${userId.slice(0, 8)}`;
    await this.service.users.register(
      {
        userId,
        role,
        superAdmin,
        emailNotificationsEnabled: wantsMail,
        personal: {
          username: name,
          email: `${name}@example.org`,
          firstName: 'Kim',
          lastName: name,
          passwordHash: 'scrypt$x',
        },
      },
      { actor: { kind: 'system', name: 'test' }, now: new Date() },
      { commandId: randomUUID() },
    );
    return { userId, actor: { kind: 'user', userId, role, superAdmin } };
  }
}
