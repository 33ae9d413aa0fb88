import type { Role } from '../shared/decider';
import type { RegisterUserData, UserEvent } from '../user/user';

export const STAMP = '2026-03-01T14:00:00.000Z';
export const now = new Date(STAMP);

export const personalOf = (userId: string) => ({
  username: `${userId}-login`,
  email: `${userId}@example.org`,
  firstName: 'Avery',
  lastName: 'Lee',
  notificationEmail: `${userId}@example.org`,
  profileImageUrl: null,
  passwordHash: 'scrypt$hash',
});

export const registration = (userId: string, role: Role = 'staff', superAdmin = false): RegisterUserData => ({
  userId,
  role,
  superAdmin,
  emailNotificationsEnabled: true,
  personal: personalOf(userId),
});

export const registered = (userId: string, role: Role = 'staff', superAdmin = false): UserEvent => ({
  type: 'UserRegistered',
  data: {
    userId,
    role,
    superAdmin,
    emailNotificationsEnabled: true,
    assignedResidenceId: null,
    personal: personalOf(userId),
    at: STAMP,
  },
});
