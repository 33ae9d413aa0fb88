import { z } from 'zod';
import { outreachChannels } from '../escalation/ladder';
import { escalationStepSchema } from '../escalation/policy';
import { cleanText, entityId, optionalCleanText } from '../forms/text';
import { existsInEastern, missingTimeMessage } from '../time/duration';
import { isCalendarDate, shiftEndDate } from '../time/eastern';

export const shiftTypes = ['AM', 'PM', 'Overnight'] as const;
export const shiftPriorities = ['open', 'urgent', 'emergency'] as const;
export type ShiftType = (typeof shiftTypes)[number];
export type ShiftPriority = (typeof shiftPriorities)[number];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const date = (message: string) =>
  z.string({ error: message }).regex(DATE, message).refine(isCalendarDate, 'Please enter a valid date');
const time = (message: string) => z.string({ error: message }).regex(TIME, message);

const shiftDetailsFields = z.object({
  location: cleanText({ label: 'Location', max: 200, required: 'Location is required' }),
  date: date('Date is required'),
  startTime: time('Start time is required'),
  endTime: time('End time is required'),
  type: z.enum(shiftTypes, { error: 'Shift type must be AM, PM or Overnight' }),
  status: z.enum(shiftPriorities, { error: 'Priority must be Normal, Urgent or Emergency' }).default('open'),
  requirements: optionalCleanText({ label: 'Requirements', max: 2000, multiline: true }),
  notes: optionalCleanText({ label: 'Notes', max: 2000, multiline: true }),
  requiredCredentials: z
    .array(cleanText({ label: 'Credential', max: 100, required: 'Credential names cannot be empty' }), {
      error: 'Required credentials must be a list of credential names',
    })
    .max(20, 'A shift can require at most 20 credentials')
    .optional(),
});

/**
 * The shift's details as the create and edit dialogs send them (docs/product.md §5). A wall-clock time
 * skipped as clocks spring forward names no instant and is refused; a time that happens twice
 * as clocks fall back is read as the first one.
 */
export const shiftDetailsSchema = shiftDetailsFields.superRefine(({ date, startTime, endTime }, ctx) => {
  // Refinements run even when a field failed its own check: only a real date and times name instants.
  if (!(DATE.test(date) && isCalendarDate(date) && TIME.test(startTime) && TIME.test(endTime))) return;
  if (!existsInEastern(date, startTime)) {
    ctx.addIssue({ code: 'custom', path: ['startTime'], message: missingTimeMessage(date, startTime) });
  }
  const endDate = shiftEndDate(date, startTime, endTime);
  if (!existsInEastern(endDate, endTime)) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: missingTimeMessage(endDate, endTime) });
  }
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

/** An administrator's reason to assign against a working-time rule (docs/product.md §10.3). */
export const ruleOverrideSchema = z.object({
  reason: cleanText({ label: 'Reason', max: 500, required: 'Please give a reason for the override' }),
});

const id = entityId;
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
      override: ruleOverrideSchema.optional(),
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
      message: optionalCleanText({ label: 'Message', max: 1000, multiline: true }),
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
  /** A step of the escalation ladder for the shift's opening, with the notices the timers worked out. */
  z.object({
    type: z.literal('EscalateShift'),
    data: ref.extend({
      opening: z.number().int().min(1),
      step: escalationStepSchema,
      notices: z.array(z.object({ userId: z.string().min(1).nullable(), channel: z.enum(outreachChannels) })),
    }),
  }),
  /** A deleted person lets go of the shift: what they held or claimed reopens, offers to or from them end. */
  z.object({ type: z.literal('ReleaseHolder'), data: ref.extend({ userId: z.string().min(1) }) }),
]);

export type ShiftCommand = z.output<typeof shiftCommandSchema>;
export type ShiftCommandType = ShiftCommand['type'];
