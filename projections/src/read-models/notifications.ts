import { type OutreachNotice, outreachWording } from '@shiftcover/domain';
import type { RecordedEvent } from '@shiftcover/eventstore';
import type { PendingQuery, Row, TransactionSql } from 'postgres';
import { type EventData, oneAtATime, type Projection, type TableName } from '../projection';
import { insertRows } from '../rows';
import { adminsOfResidence } from './residence-admins';
import { factsLabel, type ShiftFacts, ShiftFactsBatch, shiftFactsSchema } from './shift-facts';

type Kind =
  | 'shift_claim'
  | 'shift_approval'
  | 'urgent_coverage'
  | 'reminder'
  | 'shift_available'
  | 'credential_expiry';
interface Note {
  to: string | 'all-staff';
  type: Kind;
  title: string;
  message: string;
}

/** Who hears about each event in the app (a field of the event naming them), and what they read. */
const personal: Record<
  string,
  [recipient: string, type: Kind, title: string, message: (l: string) => string]
> = {
  ClaimApproved: [
    'userId',
    'shift_approval',
    'Shift approved',
    (l) => `Your claim on the ${l} was approved.`,
  ],
  ClaimDenied: [
    'userId',
    'shift_approval',
    'Claim not approved',
    (l) => `Your claim on the ${l} was not approved.`,
  ],
  ShiftAssigned: [
    'userId',
    'shift_approval',
    'Shift assigned to you',
    (l) => `You have been assigned the ${l}.`,
  ],
  DropApproved: ['userId', 'shift_approval', 'Drop approved', (l) => `You are no longer on the ${l}.`],
  DropDenied: ['userId', 'shift_approval', 'Drop not approved', (l) => `You are still on the ${l}.`],
  TransferRequested: [
    'toUserId',
    'shift_claim',
    'Shift transfer request',
    (l) => `A colleague asks you to take the ${l}.`,
  ],
  TransferAccepted: [
    'fromUserId',
    'shift_claim',
    'Transfer accepted',
    (l) => `Your transfer of the ${l} was accepted.`,
  ],
  TransferDeclined: [
    'fromUserId',
    'shift_claim',
    'Transfer declined',
    (l) => `Your transfer of the ${l} was declined.`,
  ],
  HolderReminded: ['userId', 'reminder', 'Shift reminder', (l) => `Reminder: you are on the ${l}.`],
  ShiftDeleted: [
    'assignedUserId',
    'shift_approval',
    'Shift cancelled',
    (l) => `The ${l} you held was cancelled.`,
  ],
};

function notesFor(type: string, d: EventData, shift?: ShiftFacts): Note[] {
  if (d.testData) return [];
  const l = factsLabel(shift);
  if (type === 'ShiftPosted' && d.priority === 'open') {
    return [
      {
        to: 'all-staff',
        type: 'shift_available',
        title: 'New shift available',
        message: `The ${l} is open to claim.`,
      },
    ];
  }
  if (type === 'ShiftEscalated') {
    // docs/product.md §11: each person the step told in the app.
    const { title, text } = outreachWording(d.step, l);
    const kind: Kind = d.step.mark ? 'urgent_coverage' : 'shift_available';
    return (d.notices as OutreachNotice[]).flatMap((notice) =>
      notice.channel === 'in_app' && notice.userId
        ? [{ to: notice.userId, type: kind, title, message: text }]
        : [],
    );
  }
  // A mark by the escalation ladder is told by the step's own notices.
  if (type === 'ShiftMarkedUrgent' && d.escalated) return [];
  if (type === 'ShiftPosted' || type === 'ShiftMarkedUrgent') {
    const message = `The ${l} needs ${d.priority} coverage.`;
    return [{ to: 'all-staff', type: 'urgent_coverage', title: 'Urgent coverage needed', message }];
  }
  const rule = personal[type];
  if (!rule || !d[rule[0]]) return [];
  const [recipient, kind, title, message] = rule;
  return [{ to: d[recipient], type: kind, title, message: message(l) }];
}

/**
 * Whose notifications an event writes or changes: each staff member, the admins (all of them,
 * though a reopened shift tells only its residence's when it has any), and people by id. The live
 * feed tells these people, and only these, that their bell has news (docs/architecture.md §6.3).
 */
export interface NoticeRecipients {
  staff: boolean;
  admins: boolean;
  people: string[];
}

export function noticeRecipients(event: RecordedEvent): NoticeRecipients {
  const d = event.data as EventData;
  const none: NoticeRecipients = { staff: false, admins: false, people: [] };
  // As `applyToPeople` writes them.
  switch (event.type) {
    case 'NotificationsRead':
    case 'UserDeleted':
      return { ...none, people: [d.userId] };
    case 'HolderRemoved':
      return { ...none, admins: !d.testData };
    case 'CredentialExpiryNoticed':
      return { ...none, admins: true, people: [d.userId] };
  }
  // As `pendingNotes` gathers them.
  const notes = notesFor(event.type, d);
  return {
    ...none,
    staff: notes.some((note) => note.to === 'all-staff'),
    people: notes.flatMap((note) => (note.to === 'all-staff' ? [] : [note.to])),
  };
}

/** Keeps who the admins are and the residences they are assigned to, by name. */
async function trackAdmins(tx: TransactionSql, event: RecordedEvent, t: TableName) {
  const d = event.data as EventData;
  const admins = tx(t('notification_admins'));
  const residences = tx(t('notification_residences'));
  switch (event.type) {
    case 'UserRegistered':
    case 'UserUpdated':
      if (d.role === 'admin') {
        await tx`insert into ${admins} (id, residence_id) values (${d.userId}, ${d.assignedResidenceId ?? null})
          on conflict (id) do nothing`;
      } else await tx`delete from ${admins} where id = ${d.userId}`;
      return;
    case 'ResidenceAssigned':
      await tx`update ${admins} set residence_id = ${d.residenceId} where id = ${d.userId}`;
      return;
    case 'UserDeleted':
      await tx`delete from ${admins} where id = ${d.userId}`;
      return;
    case 'ResidenceCreated':
    case 'ResidenceUpdated':
      await tx`insert into ${residences} (id, name) values (${d.residenceId}, ${d.name})
        on conflict (id) do update set name = excluded.name`;
      return;
    case 'ResidenceDeleted':
      await tx`delete from ${residences} where id = ${d.residenceId}`;
  }
}

/**
 * A shift that lost its holder is news for the admins of its residence (every admin when none is
 * assigned there), as its e-mail is.
 */
async function tellAdmins(
  tx: TransactionSql,
  event: RecordedEvent,
  t: TableName,
  shift: ShiftFacts | undefined,
) {
  const d = event.data as EventData;
  const admins = tx(t('notification_admins'));
  const residences = tx(t('notification_residences'));
  const location = shift?.location ?? '';
  const message = `The ${factsLabel(shift)} is open again: the person on it no longer has an account.`;
  await tx`with added as (
      insert into ${tx(t('notifications'))} (id, user_id, title, message, type, shift_id, created_at)
      select ${`${event.id}:0:`} || a.id, a.id, 'Shift reopened', ${message}, 'shift_available', ${d.shiftId},
        ${d.at ?? event.recordedAt}
      from (${adminsOfResidence(tx, admins, residences, location)}) a
      returning user_id)
    ${countedUnread(tx, t)}`;
}

/**
 * A credential's last day is near (docs/product.md §10.1): its holder and every admin hear of it.
 * The admins' notice names no one (this read model keeps no names): the credentials are in User
 * Management.
 */
async function tellOfExpiry(tx: TransactionSql, event: RecordedEvent, t: TableName) {
  const d = event.data as EventData;
  const notifications = tx(t('notifications'));
  const due = `valid through ${d.expiresOn}, ${d.daysBefore} days from now`;
  const at = d.at ?? event.recordedAt;
  await tx`with added as (
      insert into ${notifications} (id, user_id, title, message, type, shift_id, created_at)
      values (${`${event.id}:0:${d.userId}`}, ${d.userId}, 'Credential expiring',
        ${`Your ${d.name} credential is ${due}. Renew it before then.`}, 'credential_expiry', null, ${at})
      returning user_id)
    ${countedUnread(tx, t)}`;
  await tx`with added as (
      insert into ${notifications} (id, user_id, title, message, type, shift_id, created_at)
      select ${`${event.id}:1:`} || id, id, 'Credential expiring',
        ${`A staff member's ${d.name} credential is ${due}.`}, 'credential_expiry', null, ${at}
      from ${tx(t('notification_admins'))} where id <> ${d.userId}
      returning user_id)
    ${countedUnread(tx, t)}`;
}

/**
 * Adds the notifications of the statement's `added` (their `user_id`s) to each person's count of
 * unread ones: the bell reads one row, whatever a person has left unread.
 */
function countedUnread(tx: TransactionSql, t: TableName) {
  return addedUnread(tx, t, tx`select user_id, count(*)::int from added group by user_id`);
}

/** Adds each `(user_id, unread)` row of `rows` to that person's count of unread notifications. */
function addedUnread(tx: TransactionSql, t: TableName, rows: PendingQuery<Row[]>) {
  return tx`insert into ${tx(t('notification_unread'))} as u (user_id, unread) ${rows}
    on conflict (user_id) do update set unread = u.unread + excluded.unread`;
}

/** Events that change who is staff or admin or notifications already written, or that write notices of their own: applied as they come. */
const changesPeopleOrNotifications = new Set([
  'UserRegistered',
  'UserUpdated',
  'UserDeleted',
  'ResidenceAssigned',
  'ResidenceCreated',
  'ResidenceUpdated',
  'ResidenceDeleted',
  'NotificationsRead',
  'HolderRemoved',
  'CredentialExpiryNoticed',
]);

async function applyToPeople(tx: TransactionSql, event: RecordedEvent, t: TableName, facts: ShiftFactsBatch) {
  const d = event.data as EventData;
  const staff = tx(t('notification_staff'));
  const notifications = tx(t('notifications'));
  const unread = tx(t('notification_unread'));
  await trackAdmins(tx, event, t);
  switch (event.type) {
    case 'UserRegistered':
    case 'UserUpdated':
      if (d.role === 'staff') await tx`insert into ${staff} (id) values (${d.userId}) on conflict do nothing`;
      else await tx`delete from ${staff} where id = ${d.userId}`;
      return;
    case 'UserDeleted':
      await tx`delete from ${staff} where id = ${d.userId}`;
      await tx`delete from ${notifications} where user_id = ${d.userId}`;
      await tx`delete from ${unread} where user_id = ${d.userId}`;
      return;
    case 'NotificationsRead':
      // Only the rows still unread, taken off the person's count: a year of notifications marked
      // read again is no rewrite of them.
      await tx`with marked as (
          update ${notifications} set read = true
          where user_id = ${d.userId} and not read
            ${d.notificationIds === null ? tx`` : tx`and id = any(${d.notificationIds})`}
          returning 1)
        update ${unread} set unread = unread - (select count(*) from marked)::int
        where user_id = ${d.userId}`;
      return;
    case 'HolderRemoved':
      if (!d.testData) await tellAdmins(tx, event, t, facts.get(d.shiftId));
      return;
    case 'CredentialExpiryNoticed':
      await tellOfExpiry(tx, event, t);
  }
}

/** A notification not yet written: to one person, or to each staff member (`user_id` null). */
interface PendingNote {
  idPrefix: string;
  user_id: string | null;
  title: string;
  message: string;
  type: Kind;
  shift_id: string | null;
  created_at: string;
}

function pendingNotes(event: RecordedEvent, facts: ShiftFactsBatch): PendingNote[] {
  const d = event.data as EventData;
  return notesFor(event.type, d, facts.get(d.shiftId)).map((note, i) => ({
    idPrefix: `${event.id}:${i}:`,
    user_id: note.to === 'all-staff' ? null : note.to,
    title: note.title,
    message: note.message,
    type: note.type,
    shift_id: d.shiftId ?? null,
    created_at: new Date(d.at ?? event.recordedAt).toISOString(),
  }));
}

/** Writes the notes gathered so far: those to one person as rows, those to all staff joined with the staff. */
async function writeNotes(tx: TransactionSql, t: TableName, notes: readonly PendingNote[]) {
  const [toAll, toOne] = [notes.filter((n) => n.user_id === null), notes.filter((n) => n.user_id !== null)];
  await insertRows(
    tx,
    t('notifications'),
    toOne.map(({ idPrefix, ...note }) => ({ id: idPrefix + note.user_id, ...note })),
  );
  if (toOne.length > 0) {
    const added = new Map<string, number>();
    for (const { user_id } of toOne) added.set(user_id!, (added.get(user_id!) ?? 0) + 1);
    await addedUnread(
      tx,
      t,
      tx`select * from unnest(${[...added.keys()]}::text[], ${[...added.values()]}::int[])`,
    );
  }
  if (toAll.length === 0) return;
  const column = <K extends keyof PendingNote>(key: K) => toAll.map((note) => note[key]) as string[];
  const staff = tx(t('notification_staff'));
  await tx`insert into ${tx(t('notifications'))} (id, user_id, title, message, type, shift_id, created_at)
    select n.id_prefix || s.id, s.id, n.title, n.message, n.type, n.shift_id, n.created_at
    from unnest(${column('idPrefix')}::text[], ${column('title')}::text[], ${column('message')}::text[],
      ${column('type')}::text[], ${column('shift_id')}::text[], ${column('created_at')}::timestamptz[])
      as n (id_prefix, title, message, type, shift_id, created_at)
    cross join ${staff} s`;
  await addedUnread(tx, t, tx`select id, ${toAll.length}::int from ${staff}`);
}

/**
 * Notifications are gathered and written together; an event that changes who the staff and admins
 * are, or notifications already written, has the gathered ones written first and is applied alone.
 */
async function applyNotificationsBatch(tx: TransactionSql, events: readonly RecordedEvent[], t: TableName) {
  const facts = await ShiftFactsBatch.load(tx, t('notification_shift_facts'), events);
  let notes: PendingNote[] = [];
  for (const event of events) {
    facts.track(event);
    if (changesPeopleOrNotifications.has(event.type)) {
      await writeNotes(tx, t, notes);
      notes = [];
      await applyToPeople(tx, event, t, facts);
    } else notes.push(...pendingNotes(event, facts));
  }
  await writeNotes(tx, t, notes);
  await facts.save(tx);
}

/** In-app notifications (docs/product.md §3 notifications) for the people each event concerns. */
export const notificationsProjection: Projection = {
  name: 'notifications',
  // 3: each person's count of unread notifications, kept as they are added and read.
  version: 3,
  tables: [
    'notifications',
    'notification_unread',
    'notification_shift_facts',
    'notification_staff',
    'notification_admins',
    'notification_residences',
  ],
  // The bell reads a person's count from `notification_unread` rather than counting their rows:
  // every open shift posted gives each staff member a row, one to a page among everyone's, and a
  // year of them left unread, counted row by row, took tens of milliseconds for every bell.
  schema: (t) => `
    ${shiftFactsSchema(t('notification_shift_facts'))}
    create table ${t('notification_staff')} (id text primary key);
    create table ${t('notification_admins')} (id text primary key, residence_id text);
    create table ${t('notification_residences')} (id text primary key, name text not null);
    create table ${t('notifications')} (
      id text primary key,
      user_id text not null,
      title text not null,
      message text not null,
      type text not null,
      shift_id text,
      read boolean not null default false,
      created_at timestamptz not null
    );
    create index on ${t('notifications')} (user_id, created_at desc);
    create table ${t('notification_unread')} (user_id text primary key, unread int not null);`,
  applyBatch: applyNotificationsBatch,
  apply: oneAtATime(applyNotificationsBatch),
};
