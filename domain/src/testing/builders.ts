import type { Role } from '../shared/decider';
import type { ShiftCommand } from '../shift/schemas';
import type { RegisterUserData } from '../user/user';

type PostShiftData = Extract<ShiftCommand, { type: 'PostShift' }>['data'];

/** A PostShift command's data: an open day shift at Maple House, 08:00–16:00 Eastern on 2026-03-10. */
export const aShift = (overrides: Partial<PostShiftData> = {}): PostShiftData => ({
  shiftId: crypto.randomUUID(),
  location: 'Maple House',
  date: '2026-03-10',
  startTime: '08:00',
  endTime: '16:00',
  type: 'AM',
  status: 'open',
  requirements: null,
  notes: null,
  ...overrides,
});

export interface PersonOverrides {
  userId?: string;
  /** The login name; the e-mail address is `name@example.org`. */
  name?: string;
  role?: Role;
  superAdmin?: boolean;
  /** E-mail notifications, on unless false. */
  mail?: boolean;
  residenceId?: string;
  personal?: Partial<RegisterUserData['personal']>;
}

/** A RegisterUser command's data: by default a staff member named `u` and the id's first eight characters, mail on. */
export function aPerson(overrides: PersonOverrides = {}): RegisterUserData {
  const userId = overrides.userId ?? crypto.randomUUID();
  const name = overrides.name ?? `u${userId.slice(0, 8)}`;
  return {
    userId,
    role: overrides.role ?? 'staff',
    superAdmin: overrides.superAdmin ?? false,
    emailNotificationsEnabled: overrides.mail ?? true,
    ...(overrides.residenceId ? { assignedResidenceId: overrides.residenceId } : {}),
    personal: {
      username: name,
      email: `${name}@example.org`,
      firstName: name,
      lastName: 'Test',
      passwordHash: 'scrypt$x',
      ...overrides.personal,
    },
  };
}
