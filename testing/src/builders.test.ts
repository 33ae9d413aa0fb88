import {
  type CommandContext,
  easternInstant,
  shiftCommandSchema,
  shiftDecider,
  userDecider,
} from '@shiftcover/domain';
import { describe, expect, it } from 'vitest';
import { aPerson, aShift } from './builders';

const now = easternInstant('2026-03-01', '09:00');
const admin: CommandContext = {
  actor: { kind: 'user', userId: 'admin-1', role: 'admin', superAdmin: false },
  now,
};
const system: CommandContext = { actor: { kind: 'system', name: 'test' }, now };

describe('the test builders', () => {
  it('make a shift the API accepts and an admin may post', () => {
    const command = { type: 'PostShift' as const, data: aShift() };
    expect(shiftCommandSchema.safeParse(command).success).toBe(true);
    expect(shiftDecider.decide(command, shiftDecider.initialState(), admin).map((e) => e.type)).toEqual([
      'ShiftPosted',
    ]);
  });

  it('make a person the system may register, under the name given', () => {
    const person = aPerson({ name: 'ana', role: 'admin' });
    const [registered] = userDecider.decide(
      { type: 'RegisterUser', data: person },
      userDecider.initialState(),
      system,
    );
    expect(registered).toMatchObject({
      type: 'UserRegistered',
      data: { userId: person.userId, role: 'admin', personal: { username: 'ana', email: 'ana@example.org' } },
    });
  });
});
