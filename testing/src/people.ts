import { randomUUID } from 'node:crypto';
import type { Actor } from '@shiftcover/domain';
import type { Prepared } from './bench';
import { aPerson, type PersonOverrides } from './builders';

/**
 * Registers `name` (e-mail `name@example.org`) as the system would, and returns them as an actor.
 * E-mail notifications are on unless `mail` is false.
 */
export async function registerPerson(
  service: Prepared['service'],
  name: string,
  options: Omit<PersonOverrides, 'name' | 'userId'> & {
    role: NonNullable<PersonOverrides['role']>;
    now: Date;
  },
): Promise<Extract<Actor, { kind: 'user' }>> {
  const { now, ...overrides } = options;
  const person = aPerson({ ...overrides, name });
  await service.users.register(
    person,
    { actor: { kind: 'system', name: 'test' }, now },
    { commandId: randomUUID() },
  );
  return { kind: 'user', userId: person.userId, role: person.role, superAdmin: person.superAdmin };
}
