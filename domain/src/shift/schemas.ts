import { z } from 'zod';
import { isCalendarDate } from '../time/eastern';

export const shiftTypes = ['AM', 'PM', 'Overnight'] as const;
export const shiftPriorities = ['open', 'urgent', 'emergency'] as const;
export type ShiftType = (typeof shiftTypes)[number];
export type ShiftPriority = (typeof shiftPriorities)[number];

const date = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine(isCalendarDate, 'Please enter a valid date');
const time = (message: string) => z.string({ error: message }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, message);
const optionalText = z
  .string()
  .trim()
  .max(2000)
  .nullish()
  .transform((value) => (value ? value : null));

/** The shift's details as the create and edit dialogs send them (SPEC §5). */
export const shiftDetailsSchema = z.object({
  location: z.string({ error: 'Location is required' }).trim().min(1, 'Location is required'),
  date: date('Date is required'),
  startTime: time('Start time is required'),
  endTime: time('End time is required'),
  type: z.enum(shiftTypes, { error: 'Shift type must be AM, PM or Overnight' }),
  status: z.enum(shiftPriorities, { error: 'Priority must be Normal, Urgent or Emergency' }).default('open'),
  requirements: optionalText,
  notes: optionalText,
});
export type ShiftDetails = z.infer<typeof shiftDetailsSchema>;

/** Form-only presets: they fill times and type and are never sent. */
export const shiftPresets = {
  morning: { label: 'Morning', startTime: '08:00', endTime: '16:00', type: 'AM' },
  day: { label: 'Day', startTime: '16:00', endTime: '00:00', type: 'PM' },
  overnight: { label: 'Overnight', startTime: '00:00', endTime: '08:00', type: 'Overnight' },
} as const satisfies Record<string, { label: string; startTime: string; endTime: string; type: ShiftType }>;

export const priorityLabels: Record<ShiftPriority, string> = {
  open: 'Normal',
  urgent: 'Urgent',
  emergency: 'Emergency',
};

const id = z.string().trim().min(1).max(100);
const ref = z.object({ shiftId: id });
const transferRef = z.object({ shiftId: id, transferId: id });
const role = z.enum(['developer', 'admin', 'staff']);

export const shiftCommandSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('PostShift'),
    // Test shifts (the e-mail bulk test) are mailed to the developer only and never listed.
    data: shiftDetailsSchema.extend({ shiftId: id, testData: z.boolean().optional() }),
  }),
  z.object({ type: z.literal('UpdateShift'), data: shiftDetailsSchema.extend({ shiftId: id }) }),
  z.object({ type: z.literal('DeleteShift'), data: ref }),
  z.object({ type: z.literal('ClaimShift'), data: ref }),
  z.object({ type: z.literal('ApproveClaim'), data: ref }),
  z.object({ type: z.literal('DenyClaim'), data: ref }),
  z.object({
    type: z.literal('AssignShift'),
    data: ref.extend({
      staffId: z.string({ error: 'No Staff Selected' }).min(1, 'No Staff Selected'),
      assigneeRole: role,
    }),
  }),
  z.object({ type: z.literal('RequestDrop'), data: ref }),
  z.object({ type: z.literal('ApproveDrop'), data: ref }),
  z.object({ type: z.literal('DenyDrop'), data: ref }),
  z.object({
    type: z.literal('RequestTransfer'),
    data: transferRef.extend({
      toUserId: z
        .string({ error: 'Please select a staff member to transfer the shift to' })
        .min(1, 'Please select a staff member to transfer the shift to'),
      recipientRole: role,
      message: optionalText,
    }),
  }),
  z.object({ type: z.literal('AcceptTransfer'), data: transferRef }),
  z.object({ type: z.literal('DeclineTransfer'), data: transferRef }),
  z.object({ type: z.literal('CancelTransfer'), data: transferRef }),
  z.object({
    type: z.literal('MarkUrgent'),
    data: ref.extend({ priority: z.enum(['urgent', 'emergency']) }),
  }),
  z.object({ type: z.literal('CompleteShift'), data: ref }),
  z.object({ type: z.literal('ExpireShift'), data: ref }),
  z.object({ type: z.literal('RemindHolder'), data: ref }),
]);

export type ShiftCommand = z.output<typeof shiftCommandSchema>;
export type ShiftCommandType = ShiftCommand['type'];
