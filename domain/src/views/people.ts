import { z } from 'zod';
import { emailNotificationModes } from '../config/config';
import type { Role } from '../shared/decider';
import { positioned, timestamp } from './answers';

const role = z.enum(['developer', 'admin', 'staff'] as const satisfies readonly Role[]);

/** A user as the screens read them, without the password hash. */
export const userViewSchema = z.object({
  id: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  notificationEmail: z.string().nullable(),
  role,
  superAdmin: z.boolean(),
  emailNotificationsEnabled: z.boolean(),
  assignedResidenceId: z.string().nullable(),
  createdAt: timestamp.nullable(),
  updatedAt: timestamp.nullable(),
});
export type UserView = z.input<typeof userViewSchema>;

/** A user as a write on the account leaves it. */
export const writtenUserViewSchema = positioned(userViewSchema.shape);
export type WrittenUserView = z.input<typeof writtenUserViewSchema>;

/** A colleague as staff see them: a transfer's possible recipient. */
export const colleagueViewSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string().nullable(),
  role,
});
export type ColleagueView = z.input<typeof colleagueViewSchema>;

/** A user as administrators see them in the list. */
export const managedUserViewSchema = userViewSchema.extend({
  assignedResidenceName: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type ManagedUserView = z.input<typeof managedUserViewSchema>;

/** GET /api/users: the whole list for those who manage users, colleagues' names for everyone else. */
export const userListViewSchema = z.union([z.array(managedUserViewSchema), z.array(colleagueViewSchema)]);

export const residenceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  address: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type ResidenceView = z.input<typeof residenceViewSchema>;

/** A residence as its creation or edit leaves it: the details sent, now active. */
export const writtenResidenceViewSchema = positioned({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  isActive: z.boolean(),
});

const notificationViewSchema = z.object({
  id: z.string(),
  userId: z.string(),
  title: z.string(),
  message: z.string(),
  type: z.string(),
  shiftId: z.string().nullable(),
  read: z.boolean(),
  createdAt: timestamp,
});

/** The bell's list: the latest hundred and how many are unread. */
export const notificationsViewSchema = z.object({
  notifications: z.array(notificationViewSchema),
  unreadCount: z.number(),
});
export type NotificationsView = z.input<typeof notificationsViewSchema>;

export const unreadCountViewSchema = z.object({ unreadCount: z.number() });

export const emailModeViewSchema = z.object({
  key: z.literal('email-notification-mode'),
  value: z.enum(emailNotificationModes),
  mailingListAddress: z.string().nullable(),
});
export type EmailModeView = z.input<typeof emailModeViewSchema>;

export const writtenEmailModeViewSchema = positioned({ value: z.enum(emailNotificationModes) });
