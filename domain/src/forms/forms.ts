import { z } from 'zod';
import { cleanText, entityId, isCleanText, optionalCleanText } from './text';

/** The first problem of a failed parse, as the `{ message }` a 400 answer carries. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

const roles = ['developer', 'admin', 'staff'] as const;
/** A thing picked from a list: an id, with the form's words when none was picked. */
export const pickedId = (required: string) =>
  z.string({ error: required }).trim().min(1, required).pipe(entityId);
/** Residence ids arrive as numbers from some forms and as strings from others. */
const residenceId = z
  .union([z.string(), z.number()], { error: 'Please select a residence' })
  .transform(String)
  .pipe(pickedId('Please select a residence'));
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A password as typed: never trimmed, and never longer than a new password may be. */
const password = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(200, 'Password must be at most 200 characters')
    .refine((value) => isCleanText(value), 'Password contains characters that are not allowed');

export const loginSchema = z.object({
  username: cleanText({ label: 'Username', max: 100, required: 'Username is required' }),
  password: password('Password is required'),
});

const username = cleanText({
  label: 'Username',
  max: 100,
  required: 'Username must be at least 3 characters',
}).min(3, 'Username must be at least 3 characters');
const newPassword = password('Password must be at least 6 characters').min(
  6,
  'Password must be at least 6 characters',
);
const name = (label: string) => cleanText({ label, max: 100, required: `${label} is required` });
/** The longest address RFC 5321 lets a mail server accept. */
const email = (message: string) => z.email(message).max(254, 'Email must be at most 254 characters');

/** Create User Account (docs/product.md §5): the notification e-mail follows the e-mail; Super Admin only on admins. */
export const createUserSchema = z
  .object({
    username,
    email: z.preprocess(blankToUndefined, email('Invalid email format').optional()),
    password: newPassword,
    confirmPassword: password('Password confirmation is required'),
    firstName: name('First name'),
    lastName: name('Last name'),
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

/** Edit User Account (docs/product.md §5). */
export const editUserSchema = z
  .object({
    username,
    email: email('Please enter a valid email address'),
    firstName: name('First name'),
    lastName: name('Last name'),
    role: z.enum(roles).optional(),
    superAdmin: z.boolean().optional(),
    notificationEmail: z.preprocess(
      blankToUndefined,
      email('Please enter a valid notification email').optional(),
    ),
    emailNotificationsEnabled: z.boolean().optional(),
  })
  .transform((form) => ({ ...form, notificationEmail: form.email }));

/** Change Password dialog of the user menu; confirmPassword never leaves the browser. */
export const changeOwnPasswordSchema = z
  .object({
    currentPassword: password('Current password is required'),
    newPassword,
    confirmPassword: password('Please confirm your new password'),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: "New passwords don't match",
    path: ['confirmPassword'],
  });

/** What the server receives for a password change (docs/product.md §7 sends no confirmation). */
export const changeOwnPasswordRequestSchema = z.object({
  currentPassword: password('Current password is required'),
  newPassword,
});

/** An admin setting another user's password. */
export const adminChangePasswordSchema = z
  .object({
    newPassword,
    confirmPassword: password('Please confirm the new password'),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const resetPasswordSchema = z.object({ newPassword });

export const assignResidenceSchema = z.object({ residenceId });

export const transferRequestSchema = z.object({
  toUserId: pickedId('Please select a staff member to transfer the shift to'),
  message: optionalCleanText({ label: 'Message', max: 1000, multiline: true }),
});

export const testEmailSchema = z.object(
  {
    email: z
      .string({ error: 'All fields are required' })
      .trim()
      .min(1, 'All fields are required')
      .pipe(email('Invalid email format')),
    subject: cleanText({ label: 'Subject', max: 200, required: 'All fields are required' }),
    message: cleanText({
      label: 'Message',
      max: 2000,
      multiline: true,
      required: 'All fields are required',
    }),
  },
  { error: 'All fields are required' },
);

export const emailDiagnosticSchema = z.object(
  {
    email: z
      .string({ error: 'Email address is required for diagnostic' })
      .trim()
      .min(1, 'Email address is required for diagnostic')
      .pipe(email('Invalid email format')),
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
      .array(entityId, { error: 'No Recipients Selected' })
      .min(1, 'No Recipients Selected')
      .max(1000, 'Too many recipients'),
  },
  { error: 'No Recipients Selected' },
);
