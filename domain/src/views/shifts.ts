import { z } from 'zod';
import { shiftPriorities, shiftTypes } from '../shift/schemas';
import type { ShiftStatus } from '../shift/state';
import { positioned, timestamp } from './answers';

const shiftStatuses = [
  'open',
  'urgent',
  'emergency',
  'pending',
  'approved',
  'completed',
  'expired',
] as const satisfies readonly ShiftStatus[];

const personName = z.object({ firstName: z.string(), lastName: z.string() });
/** The holder's name as the approval and drop panels show it. */
const staffName = personName.extend({ username: z.string().nullable() });

/** What a shift is: where, when, what kind, and what the admin wrote about it. */
export const shiftFactFields = {
  location: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  type: z.enum(shiftTypes),
  requirements: z.string().nullable(),
  notes: z.string().nullable(),
};

/** A shift as the screens read it; staff see a holder only on their own shifts. */
export const shiftViewSchema = z.object({
  id: z.string(),
  ...shiftFactFields,
  /** The credentials a person must hold, unexpired, to take the shift (docs/product.md §10). */
  requiredCredentials: z.array(z.string()),
  status: z.enum(shiftStatuses),
  priority: z.enum(shiftPriorities),
  assignedUserId: z.string().nullable(),
  assignedUser: personName.extend({ id: z.string() }).nullable(),
  createdById: z.string().nullable(),
  needsApproval: z.boolean(),
  approved: z.boolean(),
  dropRequested: z.boolean(),
  dropRequestedAt: timestamp.nullable(),
  dropApproved: z.boolean(),
  transferRequested: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type ShiftView = z.input<typeof shiftViewSchema>;

/**
 * A claim awaiting approval, with the claimant's name and its place among the claims awaiting
 * approval for the same slot (the same location, date, start and end): docs/product.md §2.12.
 */
export const pendingShiftViewSchema = shiftViewSchema.extend({
  staffName,
  rank: z.number().int().min(1).describe("The claim's place among the slot's claims, 1 the best placed."),
  slotClaims: z.number().int().min(1).describe('How many claims await approval for the same slot.'),
  rankReasons: z.array(z.string()).describe('What the rank weighs, in short sentences.'),
});
export type PendingShiftView = z.input<typeof pendingShiftViewSchema>;

/** Someone who could take a shift instead of its claimant, ranked as the queue ranks claims. */
export const shiftAlternativeViewSchema = staffName.extend({
  userId: z.string(),
  rank: z.number().int().min(1),
  reasons: z.array(z.string()),
});
export type ShiftAlternativeView = z.input<typeof shiftAlternativeViewSchema>;

/** An approved shift being worked now, with how far through it is. */
export const inProgressShiftViewSchema = shiftViewSchema.extend({
  staffName: z.string(),
  progressPercent: z.number(),
});
export type InProgressShiftView = z.input<typeof inProgressShiftViewSchema>;

/** My Shifts: upcoming, this week, hours this week, and the last five worked. */
export const myShiftsViewSchema = z.object({
  upcoming: z.array(shiftViewSchema),
  thisWeekCount: z.number(),
  hoursThisWeek: z.number(),
  history: z.array(shiftViewSchema),
});
export type MyShiftsView = z.input<typeof myShiftsViewSchema>;

/** The dashboard's counts as staff receive them: the open shifts alone. */
const staffDashboardStatsSchema = z.object({ openShifts: z.number() });

/** The dashboard's counts as administrators receive them. */
const adminDashboardStatsSchema = staffDashboardStatsSchema.extend({
  emergencyShifts: z.number(),
  urgentShifts: z.number(),
  coveredShifts: z.number(),
  coveragePercent: z.number(),
  pendingApprovals: z.number(),
  totalShiftsThisMonth: z.number(),
  inProgress: z.number(),
});
export type AdminDashboardStatsView = z.input<typeof adminDashboardStatsSchema>;

export const dashboardStatsViewSchema = z.union([adminDashboardStatsSchema, staffDashboardStatsSchema]);

/** A drop request awaiting an administrator; its id is the shift's. */
export const dropRequestViewSchema = z.object({
  id: z.string(),
  shiftId: z.string(),
  dropRequestedAt: timestamp.nullable(),
  staffName,
  ...shiftFactFields,
  assignedUserId: z.string().nullable(),
});
export type DropRequestView = z.input<typeof dropRequestViewSchema>;

/** One event of a shift's stream as an auditor reads it: when, who, what it was and what it changed. */
export const shiftHistoryEntryViewSchema = z.object({
  revision: z.string(),
  type: z.string(),
  at: timestamp,
  actorId: z.string(),
  actorRole: z.string(),
  actorName: z.string(),
  changes: z.array(z.string()),
  /** A refusal's rule and figures, or an override's reason; null for other events. */
  detail: z.string().nullable(),
});
export type ShiftHistoryEntryView = z.input<typeof shiftHistoryEntryViewSchema>;

/** A shift as a write on it leaves it, read from its stream rather than a read model. */
export const writtenShiftViewSchema = positioned({
  id: z.string(),
  ...shiftFactFields,
  status: z.enum(shiftStatuses),
  assignedUserId: z.string().nullable(),
  createdById: z.string().nullable(),
  needsApproval: z.boolean(),
  approved: z.boolean(),
  dropRequested: z.boolean(),
  dropRequestedAt: timestamp.nullable(),
  dropApproved: z.boolean(),
  createdAt: timestamp.nullable(),
  updatedAt: timestamp.nullable(),
  requiredCredentials: z.array(z.string()),
  message: z.string().optional(),
});
export type WrittenShiftView = z.input<typeof writtenShiftViewSchema>;

/** A transfer request as its sender or recipient reads it. */
export const transferRequestViewSchema = z.object({
  id: z.string(),
  shiftId: z.string(),
  direction: z.enum(['incoming', 'outgoing']),
  status: z.enum(['pending', 'accepted', 'declined', 'cancelled']),
  message: z.string().nullable(),
  requestedAt: timestamp,
  respondedAt: timestamp.nullable(),
  shift: shiftViewSchema.pick({
    id: true,
    location: true,
    type: true,
    date: true,
    startTime: true,
    endTime: true,
  }),
  fromUser: staffName,
  toUser: personName,
});
export type TransferRequestView = z.input<typeof transferRequestViewSchema>;

/** The answer to a transfer request's creation, acceptance, decline or cancellation. */
export const transferAnswer = positioned({
  id: z.string(),
  status: z.enum(['pending', 'accepted', 'declined', 'cancelled']),
  message: z.string().optional(),
});
