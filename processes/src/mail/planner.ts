import { shiftDecider } from '@shiftcover/domain';
import type { EventStore, PersonalDataVault, RecordedEvent } from '@shiftcover/eventstore';
import { adminsOfResidence, applyOrSetAside, type Failure, park } from '@shiftcover/projections';
import type { Sql, TransactionSql } from 'postgres';
import { planOperationMails } from './operation-mails';
import { type Mail, mail, type ShiftInfo } from './templates';

export interface MailPlannerDeps {
  sql: Sql;
  store: EventStore;
  /** Opens addresses typed in by hand, sealed in the events that name them. */
  vault: Pick<PersonalDataVault, 'open'>;
  /** Resolves once the named read models have applied the position (recipients come from them). */
  readModelsAt(position: bigint, readModels: readonly string[]): Promise<void>;
  publicUrl: string;
  /** With no SMTP server, mails are kept in the outbox for developers to read. */
  smtpConfigured: boolean;
}

type Audience = { userIds: string[] } | 'all-staff' | { adminsOf: string };
type Rule = [
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

interface Address {
  address: string;
}

/** The read models recipients and reports come from; planning waits until they have caught up. */
export const PLANNING_READ_MODELS = ['users', 'residences', 'system_config', 'completed_shifts', 'audit_log'];

/**
 * Named people's own addresses whatever the mode: reports, test mails and resends are meant for
 * them, not for the shared list. `wanting` keeps only those with e-mail notifications on.
 */
export async function addressesOf(
  tx: TransactionSql,
  who: { userIds: string[] } | 'super-admins',
  wanting = true,
): Promise<string[]> {
  const rows = await tx<Address[]>`
    select coalesce(notification_email, email) as address from rm_users
    where coalesce(notification_email, email) is not null
      ${wanting ? tx`and email_notifications_enabled` : tx``}
      ${who === 'super-admins' ? tx`and role = 'admin' and super_admin` : tx`and id = any(${who.userIds})`}
    order by id`;
  return [...new Set(rows.map((r) => r.address))];
}

/** One delivery per recipient; an event planned again adds nothing. */
export async function queueMail(
  deps: Pick<MailPlannerDeps, 'smtpConfigured'>,
  tx: TransactionSql,
  eventId: string,
  recipients: string[],
  message: Mail,
): Promise<number> {
  const status = deps.smtpConfigured ? 'queued' : 'outbox';
  for (const recipient of recipients) {
    await tx`insert into email_deliveries (event_id, recipient, kind, subject, text_body, html_body, attachments, status)
      values (${eventId}, ${recipient}, ${message.kind}, ${message.subject}, ${message.text}, ${message.html},
        ${tx.json((message.attachments ?? []) as never)}, ${status})
      on conflict (event_id, recipient) do nothing`;
  }
  return recipients.length;
}

/** Where mail goes: each person's notification address when they want mail, or the shared list. */
async function addresses(tx: TransactionSql, audience: Audience, location: string): Promise<string[]> {
  const [mode] = await tx<{ value: string; mailing_list_address: string | null }[]>`
    select value, mailing_list_address from rm_system_config where key = 'email-notification-mode'`;
  if (mode?.value === 'mailing_list') return mode.mailing_list_address ? [mode.mailing_list_address] : [];
  const wanted = tx`email_notifications_enabled and coalesce(notification_email, email) is not null`;
  let rows: Address[];
  if (audience === 'all-staff') {
    rows = await tx<
      Address[]
    >`select coalesce(notification_email, email) as address from rm_users where role = 'staff' and ${wanted}`;
  } else if ('adminsOf' in audience) {
    // The admins assigned to the shift's residence, or every admin when none is.
    const admins = tx`(select id, assigned_residence_id as residence_id from rm_users where role = 'admin')`;
    rows = await tx<Address[]>`
      select coalesce(notification_email, email) as address from rm_users
      where id in (${adminsOfResidence(tx, admins, tx('rm_residences'), location)}) and ${wanted}`;
  } else {
    rows = audience.userIds.length
      ? await tx<
          Address[]
        >`select coalesce(notification_email, email) as address from rm_users where id = any(${audience.userIds}) and ${wanted}`
      : [];
  }
  return [...new Set(rows.map((r) => r.address))];
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

/** Plans the mails of one event: a delivery row per recipient, idempotent by (event, recipient). */
export async function planMails(
  deps: MailPlannerDeps,
  tx: TransactionSql,
  event: RecordedEvent,
): Promise<number> {
  if (event.streamId.startsWith('operation-')) return planOperationMails(deps, tx, event);
  // A shift posted as urgent or emergency is announced as urgent coverage.
  const urgentPost = event.type === 'ShiftPosted' && event.data.priority !== 'open';
  const rule = rules[urgentPost ? 'ShiftMarkedUrgent' : event.type];
  if (!rule || !event.streamId.startsWith('shift-')) return 0;
  if (event.data.testData && event.type !== 'ShiftPosted') return 0;
  const shift = await shiftAt(deps.store, event.streamId, event.revision);
  const data = { ...(event.data as Record<string, string>), holderId: shift.assignedUserId ?? '' };
  if (event.type === 'ShiftUpdated' && !shift.assignedUserId) return 0;
  const info = shiftInfo(shift);
  const [audience, kind, subject, lead] = rule;
  if (event.data.testData) {
    // A bulk-test shift is announced to the developer who ran the test, never to staff.
    const message = mail(kind, `[Test] ${subject(info)}`, lead, info, deps.publicUrl);
    const recipients = await addressesOf(tx, { userIds: [event.metadata.actorId] }, false);
    return queueMail(deps, tx, event.id, recipients, message);
  }
  const message: Mail = mail(kind, subject(info), lead, info, deps.publicUrl);
  return queueMail(deps, tx, event.id, await addresses(tx, audience(data), shift.location), message);
}

export function shiftInfo(shift: Awaited<ReturnType<typeof shiftAt>>): ShiftInfo {
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

const NAME = 'email';

/**
 * Plans the next batch after the planner's checkpoint, rows, parked events and checkpoint in one
 * transaction.
 */
export async function planNextBatch(
  deps: MailPlannerDeps,
  batchSize = 200,
  onParked: (failure: Failure) => void = () => {},
): Promise<number> {
  await deps.sql`insert into process_checkpoints (name) values (${NAME}) on conflict do nothing`;
  const [checkpoint] = await deps.sql<
    { position: bigint }[]
  >`select position from process_checkpoints where name = ${NAME}`;
  const after = BigInt(checkpoint!.position);
  const events = await deps.store.readAll(after, batchSize);
  if (events.length === 0) return 0;
  await deps.readModelsAt(events.at(-1)!.position, PLANNING_READ_MODELS);
  const failures: Failure[] = [];
  const planned = await deps.sql.begin(async (tx) => {
    const [locked] = await tx<
      { position: bigint }[]
    >`select position from process_checkpoints where name = ${NAME} for update`;
    if (BigInt(locked!.position) !== after) return 0;
    // An event the planner cannot handle is parked, so later events are still mailed.
    failures.push(
      ...(await applyOrSetAside(tx, events, undefined, (sp, event) => planMails(deps, sp, event))),
    );
    for (const failure of failures) await park(tx, NAME, failure);
    await tx`update process_checkpoints set position = ${events.at(-1)!.position.toString()}, updated_at = now() where name = ${NAME}`;
    return events.length;
  });
  for (const failure of failures) onParked(failure);
  return planned;
}

/** The first start mails what happens from then on, not the history already in the store. */
export async function mailFromNow(sql: Sql, store: EventStore): Promise<void> {
  const head = await store.headPosition();
  await sql`insert into process_checkpoints (name, position) values (${NAME}, ${head.toString()}) on conflict do nothing`;
}

/**
 * The same planning as a JetStream consumer's handler, one event at a time; events from before
 * mail was first started are passed over. A retry of a parked event plans it whatever its position:
 * the log-following planner's checkpoint is already past it.
 */
export function emailHandler(deps: MailPlannerDeps) {
  const plan = async (event: RecordedEvent) => {
    await deps.readModelsAt(event.position, PLANNING_READ_MODELS);
    await deps.sql.begin((tx) => planMails(deps, tx, event));
  };
  return {
    name: NAME,
    async handle(event: RecordedEvent): Promise<void> {
      const [start] = await deps.sql<
        { position: bigint }[]
      >`select position from process_checkpoints where name = ${NAME}`;
      if (start && event.position <= BigInt(start.position)) return;
      await plan(event);
    },
    retry: plan,
  };
}
