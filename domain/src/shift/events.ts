import type { OutreachNotice } from '../escalation/ladder';
import type { EscalationStep } from '../escalation/policy';
import type { ShiftPriority, ShiftType } from './schemas';

interface ShiftFacts {
  shiftId: string;
  location: string;
  date: string;
  startTime: string;
  endTime: string;
  type: ShiftType;
  priority: ShiftPriority;
  requirements: string | null;
  notes: string | null;
  /** Credentials a person must hold to take the shift (absent on shifts posted before §10). */
  requiredCredentials?: string[];
}

type On<T extends string, D> = { type: T; data: D & { shiftId: string; at: string } };
type Transfer = { transferId: string; fromUserId: string; toUserId: string };

export type ShiftEvent =
  | On<'ShiftPosted', ShiftFacts & { createdById: string; testData?: true }>
  | On<'ShiftUpdated', ShiftFacts>
  | On<'ShiftDeleted', { assignedUserId: string | null; testData?: true }>
  | On<'ShiftClaimed', { userId: string }>
  | On<'ClaimApproved', { userId: string }>
  | On<'ClaimDenied', { userId: string }>
  | On<'ShiftAssigned', { userId: string; previousUserId: string | null; override?: { reason: string } }>
  | On<'DropRequested', { userId: string }>
  | On<'DropApproved', { userId: string }>
  | On<'DropDenied', { userId: string }>
  | On<'TransferRequested', Transfer & { message: string | null }>
  | On<'TransferAccepted', Transfer>
  | On<'TransferDeclined', Transfer>
  | On<'TransferCancelled', Transfer>
  /** `escalated`: marked by a step of the escalation ladder, whose own notices tell its audience. */
  | On<'ShiftMarkedUrgent', { priority: 'urgent' | 'emergency'; escalated?: true }>
  /** A step of the escalation ladder ran for the shift's current opening: who was told, and how. */
  | On<'ShiftEscalated', { opening: number; step: EscalationStep; notices: OutreachNotice[] }>
  | On<'ShiftCompleted', { userId: string; hoursWorked: number }>
  | On<'ShiftExpired', { pendingUserId: string | null }>
  | On<'HolderReminded', { userId: string }>
  /** The holder's (or claimant's) account was deleted before the shift started: it is open again. */
  | On<'HolderRemoved', { userId: string }>
  /** A claim, transfer acceptance, assignment or edit refused by a rule of docs/product.md §10. */
  | On<'ShiftRefused', ShiftRefusal>;

/** What a refusal by a safety rule records: who, for what, which rule under which version, the figures. */
export interface ShiftRefusal {
  userId: string;
  action: 'claim' | 'assignment' | 'transfer' | 'edit';
  code: string;
  message: string;
  rulesVersion: number;
  figures: Record<string, string | number>;
}

export type ShiftEventType = ShiftEvent['type'];
