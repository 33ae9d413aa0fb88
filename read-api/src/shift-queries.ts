import {
  can,
  claimableStatuses,
  easternToday,
  isClaimable,
  nextDate,
  type Principal,
  type ShiftPriority,
  type ShiftStatus,
  type ShiftType,
  shiftInterval,
  type shiftViewSchema,
} from '@shiftcover/domain';
import type { PendingQuery, Row, Sql, TransactionSql } from 'postgres';
import type { z } from 'zod';

export interface ShiftRow {
  id: string;
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  type: ShiftType;
  requirements: string | null;
  required_credentials: string[];
  notes: string | null;
  priority: ShiftPriority;
  status: ShiftStatus;
  assigned_user_id: string | null;
  created_by_id: string | null;
  needs_approval: boolean;
  approved: boolean;
  drop_requested: boolean;
  drop_requested_at: Date | null;
  drop_approved: boolean;
  transfer_requested: boolean;
  hours_worked: number | null;
  claimed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
}

/**
 * Shifts joined with their holder's name; deleted holders read as "Deleted user". `where` narrows
 * the rows in SQL (the routes still apply their exact rules); without it every shift is read.
 */
export function shiftsWithHolders(sql: Sql | TransactionSql, where?: PendingQuery<Row[]>) {
  return sql`
    select s.*, u.first_name, u.last_name, u.username
    from rm_shifts s left join rm_users u on u.id = s.assigned_user_id
    ${where ? sql`where ${where}` : sql``}`;
}

/** A shift as docs/product.md §3 names its fields; staff see a holder's name only when it is their own shift. */
export function shiftView(row: ShiftRow, who: Principal): z.output<typeof shiftViewSchema> {
  const seesHolder = can(who, 'seeShiftHolder') || row.assigned_user_id === who.userId;
  const holder =
    row.assigned_user_id && seesHolder
      ? {
          id: row.assigned_user_id,
          firstName: row.first_name ?? 'Deleted',
          lastName: row.last_name ?? 'user',
        }
      : null;
  return {
    id: row.id,
    location: row.location,
    date: row.date,
    startTime: row.start_time,
    endTime: row.end_time,
    type: row.type,
    requirements: row.requirements,
    requiredCredentials: row.required_credentials,
    notes: row.notes,
    status: row.status,
    priority: row.priority,
    assignedUserId: seesHolder ? row.assigned_user_id : null,
    assignedUser: holder,
    createdById: can(who, 'seeShiftIds') ? row.created_by_id : null,
    needsApproval: row.needs_approval,
    approved: row.approved,
    dropRequested: row.drop_requested,
    dropRequestedAt: row.drop_requested_at,
    dropApproved: row.drop_approved,
    transferRequested: row.transfer_requested,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const PRIORITY_ORDER: Record<string, number> = { emergency: 0, urgent: 1 };

/** Where a shift's priority puts it in a list: emergency 0, urgent 1, the rest 2. */
export function priorityRank(row: Pick<ShiftRow, 'priority'>): number {
  return PRIORITY_ORDER[row.priority] ?? 2;
}

/** `priorityRank` in SQL, over `rm_shifts` read as `s`. */
export function priorityRankSql(db: Sql | TransactionSql) {
  return db`(case s.priority when 'emergency' then 0 when 'urgent' then 1 else 2 end)`;
}

/** docs/product.md §4: emergency first, then urgent, then date, then start time. */
export function byUrgencyThenTime(a: ShiftRow, b: ShiftRow): number {
  return (
    priorityRank(a) - priorityRank(b) ||
    a.date.localeCompare(b.date) ||
    a.start_time.localeCompare(b.start_time)
  );
}

/** The domain's `isClaimable` for a read-model row. */
export function isOpen(row: ShiftRow): boolean {
  return isClaimable({ assignedUserId: row.assigned_user_id, status: row.status });
}

/** The domain's `isClaimable` as a SQL condition on `rm_shifts` read as `s`. */
export function claimableSql(db: Sql | TransactionSql) {
  return db`(s.assigned_user_id is null and s.status in ${db(claimableStatuses)})`;
}

export function hasEnded(row: ShiftRow, now: Date): boolean {
  return shiftInterval(row.date, row.start_time, row.end_time).end <= now;
}

/** Progress through a shift being worked now, 0–100, in real (DST-aware) Eastern time. */
export function progress(row: ShiftRow, now: Date): number | null {
  if (!row.assigned_user_id) return null;
  const { start, end } = shiftInterval(row.date, row.start_time, row.end_time);
  if (now < start || now >= end) return null;
  const percent = ((now.getTime() - start.getTime()) / (end.getTime() - start.getTime())) * 100;
  return Math.max(0, Math.min(100, Math.round(percent)));
}

/** Today and the following days up to seven ahead (the "This Week" window of docs/product.md). */
export function weekWindow(now: Date): { from: string; to: string } {
  const from = easternToday(now);
  let to = from;
  for (let i = 0; i < 7; i++) to = nextDate(to);
  return { from, to };
}

/** The holder's name as the approval and drop panels show it. */
export function staffNameOf(row: ShiftRow) {
  return {
    firstName: row.first_name ?? 'Deleted',
    lastName: row.last_name ?? 'user',
    username: row.username,
  };
}

/** Shifts with a transfer offered to the person still pending. */
export async function shiftsOfferedTo(sql: Sql, userId: string): Promise<string[]> {
  const rows = await sql<{ shift_id: string }[]>`
    select shift_id from rm_transfer_requests where to_user_id = ${userId} and status = 'pending'`;
  return rows.map((row) => row.shift_id);
}
