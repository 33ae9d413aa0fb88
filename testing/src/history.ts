import { createHash, randomUUID } from 'node:crypto';
import type { CommandService } from '@shiftcover/command-api';
import { type Actor, DomainError, nextDate, type ShiftCommand } from '@shiftcover/domain';
import fc from 'fast-check';
import { aPerson, aShift } from './builders';

const locations = ['Maple House', 'Oak Lodge', 'Day Program'];
const slots = [
  ['08:00', '16:00', 'AM'],
  ['16:00', '00:00', 'PM'],
  ['22:00', '06:00', 'Overnight'],
  ['12:00', '20:00', 'PM'],
] as const;

/** A step of a random but valid-looking history: most commands succeed, some are refused. */
export const historyStep = fc.record({
  kind: fc.constantFrom(
    'post',
    'claim',
    'approve',
    'deny',
    'drop',
    'approveDrop',
    'transfer',
    'accept',
    'urgent',
    'complete',
    'user',
    'residence',
    'delete',
    'read',
    'edit',
    'feed',
  ),
  shift: fc.nat(11),
  who: fc.nat(5),
  extra: fc.nat(50),
});
export type HistoryStep = typeof historyStep extends fc.Arbitrary<infer T> ? T : never;

/** Drives the real command service with a generated history, from a clock moving through a fortnight. */
export class HistoryWriter {
  private shifts: string[] = [];
  private users: Array<{ userId: string; actor: Actor }> = [];
  private residences: string[] = [];
  private day = '2026-03-05';
  private now = new Date('2026-03-01T12:00:00Z');
  private admin: Actor = { kind: 'user', userId: 'admin-0', role: 'admin', superAdmin: true };
  private system: Actor = { kind: 'system', name: 'history' };

  constructor(private readonly service: CommandService) {}

  async setUp(): Promise<void> {
    await this.register('admin', true);
    this.admin = this.users[0]!.actor;
    for (let i = 0; i < 4; i++) await this.register('staff', false);
    for (let i = 0; i < 3; i++) await this.step({ kind: 'post', shift: 0, who: 0, extra: i });
  }

  private async register(role: 'admin' | 'staff', superAdmin: boolean) {
    const person = aPerson({ role, superAdmin });
    await this.service.users.register(
      person,
      { actor: this.system, now: this.now },
      { commandId: randomUUID() },
    );
    const { userId } = person;
    this.users.push({ userId, actor: { kind: 'user', userId, role, superAdmin } });
  }

  async step(step: HistoryStep): Promise<void> {
    const shiftId = this.shifts[step.shift % Math.max(1, this.shifts.length)];
    const person = this.users[1 + (step.who % Math.max(1, this.users.length - 1))] ?? this.users[0]!;
    const as = (actor: Actor) => ({ actor, now: this.now });
    const shift = (command: ShiftCommand, actor: Actor) =>
      this.service.shift(command, as(actor), { commandId: randomUUID() });
    try {
      switch (step.kind) {
        case 'post': {
          const [startTime, endTime, type] = slots[step.extra % slots.length]!;
          const id = randomUUID();
          if (step.extra % 3 === 0) this.day = nextDate(this.day);
          await shift(
            {
              type: 'PostShift',
              data: aShift({
                shiftId: id,
                location: locations[step.extra % 3]!,
                date: this.day,
                startTime,
                endTime,
                type,
                status: step.extra % 7 === 0 ? 'urgent' : 'open',
                notes: step.extra % 2 ? 'Keys at reception' : null,
              }),
            },
            this.admin,
          );
          this.shifts.push(id);
          return;
        }
        case 'claim':
          if (shiftId) await shift({ type: 'ClaimShift', data: { shiftId } }, person.actor);
          return;
        case 'approve':
        case 'deny':
          if (shiftId)
            await shift(
              { type: step.kind === 'approve' ? 'ApproveClaim' : 'DenyClaim', data: { shiftId } },
              this.admin,
            );
          return;
        case 'drop':
          if (shiftId) await shift({ type: 'RequestDrop', data: { shiftId } }, person.actor);
          return;
        case 'approveDrop':
          if (shiftId)
            await shift({ type: step.extra % 2 ? 'ApproveDrop' : 'DenyDrop', data: { shiftId } }, this.admin);
          return;
        case 'transfer': {
          const to = this.users[1 + ((step.who + 1) % (this.users.length - 1))]!;
          if (shiftId) {
            await shift(
              {
                type: 'RequestTransfer',
                data: {
                  shiftId,
                  transferId: `${shiftId}.${step.extra}`,
                  toUserId: to.userId,
                  recipientRole: 'staff',
                  message: 'Swap?',
                },
              },
              person.actor,
            );
          }
          return;
        }
        case 'accept':
          if (shiftId) {
            await shift(
              {
                type: step.extra % 2 ? 'AcceptTransfer' : 'DeclineTransfer',
                data: { shiftId, transferId: `${shiftId}.${step.extra}` },
              },
              person.actor,
            );
          }
          return;
        case 'urgent':
          if (shiftId)
            await shift(
              { type: 'MarkUrgent', data: { shiftId, priority: step.extra % 2 ? 'urgent' : 'emergency' } },
              this.admin,
            );
          return;
        case 'complete':
          this.now = new Date(this.now.getTime() + (step.extra + 10) * 3_600_000);
          if (shiftId)
            await shift(
              { type: step.extra % 2 ? 'CompleteShift' : 'ExpireShift', data: { shiftId } },
              this.system,
            );
          return;
        case 'user':
          if (step.extra % 5 === 0 && this.users.length > 3) {
            const gone = this.users.splice(2, 1)[0]!;
            await this.service.users.delete(gone.userId, as(this.admin), { commandId: randomUUID() });
          } else if (this.users.length < 8) {
            await this.register('staff', false);
          }
          return;
        case 'residence': {
          const residenceId = this.residences[step.extra % Math.max(1, this.residences.length)];
          if (residenceId && step.extra % 3 === 0) {
            await this.service.residences.execute(
              { type: 'DeleteResidence', data: { residenceId } },
              as(this.admin),
              { commandId: randomUUID() },
            );
          } else {
            const id = randomUUID();
            await this.service.residences.execute(
              {
                type: 'CreateResidence',
                data: { residenceId: id, name: `Home ${step.extra}`, description: null, address: null },
              },
              as(this.admin),
              { commandId: randomUUID() },
            );
            this.residences.push(id);
          }
          return;
        }
        case 'delete':
          if (shiftId && step.extra % 4 === 0)
            await shift({ type: 'DeleteShift', data: { shiftId } }, this.admin);
          return;
        case 'read':
          await this.service.inbox(
            { type: 'MarkNotificationsRead', data: { userId: person.userId, notificationIds: 'all' } },
            as(person.actor),
            { commandId: randomUUID() },
          );
          return;
        case 'edit': {
          const [startTime, endTime, type] = slots[step.extra % slots.length]!;
          if (shiftId)
            await shift(
              {
                type: 'UpdateShift',
                data: aShift({
                  shiftId,
                  location: locations[step.extra % 3]!,
                  date: this.day,
                  startTime,
                  endTime,
                  type,
                }),
              },
              this.admin,
            );
          return;
        }
        case 'feed':
          await this.service.calendarFeed(
            step.extra % 3
              ? {
                  type: 'CreateCalendarFeed',
                  data: {
                    userId: person.userId,
                    tokenHash: createHash('sha256').update(randomUUID()).digest('hex'),
                  },
                }
              : { type: 'RevokeCalendarFeed', data: { userId: person.userId } },
            as(person.actor),
            { commandId: randomUUID() },
          );
          return;
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
}
