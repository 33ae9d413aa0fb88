import { z } from 'zod';

/** The first problem of a failed parse, as the `{ message }` a 400 answer carries. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

const roles = ['developer', 'admin', 'staff'] as const;
/** Residence ids arrive as numbers from some forms and as strings from others. */
const residenceId = z
  .union([z.string(), z.number()], { error: 'Please select a residence' })
  .transform(String)
  .pipe(z.string().trim().min(1, 'Please select a residence'));
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const loginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});

const username = z
  .string({ error: 'Username must be at least 3 characters' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(100);
const newPassword = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(200);
const name = (message: string) => z.string({ error: message }).trim().min(1, message).max(100);

/** Create User Account (SPEC §5): the notification e-mail follows the e-mail; Super Admin only on admins. */
export const createUserSchema = z
  .object({
    username,
    email: z.preprocess(blankToUndefined, z.email('Invalid email format').optional()),
    password: newPassword,
    confirmPassword: z
      .string({ error: 'Password confirmation is required' })
      .min(1, 'Password confirmation is required'),
    firstName: name('First name is required'),
    lastName: name('Last name is required'),
    role: z.enum(roles).default('staff'),
    superAdmin: z.boolean().default(false),
    emailNotificationsEnabled: z.boolean().default(true),
    assignedResidenceId: z.preprocess(blankToUndefined, residenceId.optional()),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  })
  .transform((form) => ({
    ...form,
    superAdmin: form.role === 'admin' && form.superAdmin,
    notificationEmail: form.email,
  }));

/** Edit User Account (SPEC §5). */
export const editUserSchema = z
  .object({
    username,
    email: z.email('Please enter a valid email address'),
    firstName: name('First name is required'),
    lastName: name('Last name is required'),
    role: z.enum(roles).optional(),
    superAdmin: z.boolean().optional(),
    notificationEmail: z.preprocess(
      blankToUndefined,
      z.email('Please enter a valid notification email').optional(),
    ),
    emailNotificationsEnabled: z.boolean().optional(),
  })
  .transform((form) => ({ ...form, notificationEmail: form.email }));

/** Change Password dialog of the user menu; confirmPassword never leaves the browser. */
export const changeOwnPasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required'),
    newPassword,
    confirmPassword: z
      .string({ error: 'Please confirm your new password' })
      .min(1, 'Please confirm your new password'),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: "New passwords don't match",
    path: ['confirmPassword'],
  });

/** What the server receives for a password change (SPEC §7 sends no confirmation). */
export const changeOwnPasswordRequestSchema = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
  newPassword,
});

/** An admin setting another user's password. */
export const adminChangePasswordSchema = z
  .object({
    newPassword,
    confirmPassword: z
      .string({ error: 'Please confirm the new password' })
      .min(1, 'Please confirm the new password'),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const resetPasswordSchema = z.object({ newPassword });

export const assignResidenceSchema = z.object({ residenceId });

export const transferRequestSchema = z.object({
  toUserId: z
    .string({ error: 'Please select a staff member to transfer the shift to' })
    .trim()
    .min(1, 'Please select a staff member to transfer the shift to'),
  message: z.string().trim().max(1000).optional(),
});

export const testEmailSchema = z.object(
  {
    email: z
      .string({ error: 'All fields are required' })
      .trim()
      .min(1, 'All fields are required')
      .pipe(z.email('Invalid email format')),
    subject: z.string({ error: 'All fields are required' }).trim().min(1, 'All fields are required'),
    message: z.string({ error: 'All fields are required' }).trim().min(1, 'All fields are required'),
  },
  { error: 'All fields are required' },
);

export const emailDiagnosticSchema = z.object(
  {
    email: z
      .string({ error: 'Email address is required for diagnostic' })
      .trim()
      .min(1, 'Email address is required for diagnostic')
      .pipe(z.email('Invalid email format')),
  },
  { error: 'Email address is required for diagnostic' },
);

export const bulkTestSchema = z.object({
  count: z.coerce
    .number({ error: 'Count must be between 1 and 50' })
    .int('Count must be between 1 and 50')
    .min(1, 'Count must be between 1 and 50')
    .max(50, 'Count must be between 1 and 50')
    .default(20),
});

export const resendNotificationSchema = z.object(
  {
    recipients: z
      .array(z.string().min(1).max(100), { error: 'No Recipients Selected' })
      .min(1, 'No Recipients Selected')
      .max(1000, 'Too many recipients'),
  },
  { error: 'No Recipients Selected' },
);
