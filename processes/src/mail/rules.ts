import { type ShiftState, shiftDecider } from '@shiftcover/domain';
import type { EventStore } from '@shiftcover/eventstore';
import { mail, type ShiftInfo } from './templates';

/** Who an event's mail goes to; `adminsOf` names the shift whose residence's admins are meant. */
export type Audience = { userIds: string[] } | 'all-staff' | { adminsOf: string };
export type Rule = [
  audience: (d: Record<string, string>) => Audience,
  kind: string,
  subject: (s: ShiftInfo) => string,
  lead: string,
];

const on = (s: ShiftInfo) => `${s.location}, ${s.date}`;
const one = (field: string) => (d: Record<string, string>) => ({ userIds: d[field] ? [d[field]] : [] });

/** Which events are mailed, to whom, and what they say. */
const rules: Record<string, Rule> = {
  ShiftPosted: [
    () => 'all-staff',
    'shift_posted',
    (s) => `New shift available: ${on(s)}`,
    'A new shift is open to claim.',
  ],
  ShiftMarkedUrgent: [
    () => 'all-staff',
    'urgent_coverage',
    (s) => `Urgent coverage needed: ${on(s)}`,
    'This shift needs cover urgently.',
  ],
  ShiftClaimed: [
    (d) => ({ adminsOf: d.shiftId! }),
    'claim_pending',
    (s) => `Claim awaiting approval: ${on(s)}`,
    'A staff member has claimed this shift and is waiting for your approval.',
  ],
  ClaimApproved: [
    one('userId'),
    'claim_approved',
    (s) => `Shift confirmed: ${on(s)}`,
    'Your claim was approved. The shift is yours.',
  ],
  ClaimDenied: [
    one('userId'),
    'claim_denied',
    (s) => `Claim not approved: ${on(s)}`,
    'Your claim on this shift was not approved.',
  ],
  DropApproved: [
    one('userId'),
    'drop_approved',
    (s) => `Drop approved: ${on(s)}`,
    'Your request to drop this shift was approved. You are no longer on it.',
  ],
  DropDenied: [
    one('userId'),
    'drop_denied',
    (s) => `Drop not approved: ${on(s)}`,
    'Your request to drop this shift was not approved. You are still on it.',
  ],
  TransferRequested: [
    one('toUserId'),
    'transfer_requested',
    (s) => `Can you take this shift? ${on(s)}`,
    'A colleague has asked you to take over this shift.',
  ],
  TransferAccepted: [
    one('fromUserId'),
    'transfer_accepted',
    (s) => `Transfer accepted: ${on(s)}`,
    'Your colleague accepted the shift you offered. It is no longer yours.',
  ],
  TransferDeclined: [
    one('fromUserId'),
    'transfer_declined',
    (s) => `Transfer declined: ${on(s)}`,
    'Your colleague declined the shift you offered. It is still yours.',
  ],
  ShiftUpdated: [
    one('holderId'),
    'shift_changed',
    (s) => `Shift changed: ${on(s)}`,
    'A shift you hold has been changed. Here are its details now.',
  ],
  HolderReminded: [
    one('userId'),
    'reminder',
    (s) => `Reminder: your shift at ${on(s)}`,
    'A reminder that you are on this shift soon.',
  ],
  HolderRemoved: [
    (d) => ({ adminsOf: d.shiftId! }),
    'holder_removed',
    (s) => `Shift reopened: ${on(s)}`,
    'The person on this shift no longer has an account, so it is open again.',
  ],
  ShiftDeleted: [
    one('assignedUserId'),
    'shift_deleted',
    (s) => `Shift cancelled: ${on(s)}`,
    'A shift you held has been cancelled.',
  ],
};

/**
 * The rule of a shift event; a shift posted as urgent or emergency is announced as urgent coverage.
 * A mark by the escalation ladder is not announced: the step's own notices tell its audience.
 */
export function ruleFor(type: string, data: Record<string, unknown>): Rule | undefined {
  if (data.escalated) return undefined;
  const urgentPost = type === 'ShiftPosted' && data.priority !== 'open';
  return rules[urgentPost ? 'ShiftMarkedUrgent' : type];
}

/** The shift as it stood right after the event (or now), folded from its own stream. */
export async function shiftAt(store: EventStore, streamId: string, revision?: bigint) {
  const { events } = await store.readStream(streamId);
  const upTo = events.filter((e) => revision === undefined || e.revision <= revision);
  return upTo.reduce(
    (state, e) => shiftDecider.evolve(state, { type: e.type, data: e.data } as never),
    shiftDecider.initialState(),
  );
}

export function shiftInfo(shift: ShiftState): ShiftInfo {
  return {
    location: shift.location,
    date: shift.date,
    start_time: shift.startTime,
    end_time: shift.endTime,
    type: shift.type,
    requirements: shift.requirements,
    priority: shift.priority,
  };
}

/** The subject and lead of a new shift's mail, for a resend. */
export const newShiftMail = (info: ShiftInfo, publicUrl: string) => {
  const [, kind, subject, lead] = rules.ShiftPosted!;
  return mail(kind, subject(info), lead, info, publicUrl);
};
