import { randomUUID } from 'node:crypto';
import type { Actor } from '@shiftcover/domain';
import type { Prepared } from '@shiftcover/projections/testing';

/**
 * Registers `name` (e-mail `name@example.org`) as the system would, and returns them as an actor.
 * E-mail notifications are on unless `mail` is false.
 */
export async function registerPerson(
  service: Prepared['service'],
  name: string,
  options: {
    role: 'staff' | 'admin' | 'developer';
    now: Date;
    superAdmin?: boolean;
    mail?: boolean;
    residenceId?: string;
  },
): Promise<Extract<Actor, { kind: 'user' }>> {
  const userId = randomUUID();
  const { role, superAdmin = false } = options;
  await service.users.register(
    {
      userId,
      role,
      superAdmin,
      emailNotificationsEnabled: options.mail ?? true,
      ...(options.residenceId ? { assignedResidenceId: options.residenceId } : {}),
      personal: {
        username: name,
        email: `${name}@example.org`,
        firstName: name,
        lastName: 'Test',
        passwordHash: 'scrypt$x',
      },
    },
    { actor: { kind: 'system', name: 'test' }, now: options.now },
    { commandId: randomUUID() },
  );
  return { kind: 'user', userId, role, superAdmin };
}
