import { can, easternToday, type Principal, previousDate } from '@shiftcover/domain';
import type { PendingQuery, Row, Sql, TransactionSql } from 'postgres';
import { keyAfter, listOrder, pageFrom, type pageRequest, type SortKey } from './shift-paging';
import { claimableSql, hasEnded, priorityRank, type ShiftRow, shiftsWithHolders } from './shift-queries';

type Db = Sql | TransactionSql;
type Condition = PendingQuery<Row[]>;

export interface ShiftFilters {
  location?: string;
  type?: string;
  status?: 'all' | 'open' | 'claimed' | 'urgent' | 'pending' | 'emergency';
}

const DAY_PROGRAM = 'Day Program';
// Shifts that have not ended are dated today or later, or yesterday for an overnight one.
const notBefore = (at: Date) => previousDate(easternToday(at));
const sortKeyOf = (row: ShiftRow): SortKey => [priorityRank(row), row.date, row.start_time, row.id];

/** Every one of `conditions` (those given), or undefined when none is. */
export function allOf(db: Db, conditions: (Condition | undefined)[]): Condition | undefined {
  return conditions.reduce<Condition | undefined>(
    (all, condition) => (all && condition ? db`${all} and ${condition}` : (all ?? condition)),
    undefined,
  );
}

/** The conditions that keep shifts dated from `from` to `to`, both included, when given. */
export function datedWithin(db: Db, { from, to }: { from?: string; to?: string }): Condition[] {
  return [
    ...(from === undefined ? [] : [db`s.date >= ${from}`]),
    ...(to === undefined ? [] : [db`s.date <= ${to}`]),
  ];
}

/** The screen's filters (docs/product.md §2) as SQL conditions. */
function filtered(db: Db, { location, type, status }: ShiftFilters): Condition[] {
  const conditions: Condition[] = [];
  if (location && location !== 'all') conditions.push(db`s.location = ${location}`);
  const kind = type?.toLowerCase();
  if (kind === 'residential') conditions.push(db`s.location <> ${DAY_PROGRAM}`);
  if (kind === 'day program' || kind === 'day-program') conditions.push(db`s.location = ${DAY_PROGRAM}`);
  if (kind === 'am' || kind === 'pm' || kind === 'overnight') conditions.push(db`lower(s.type) = ${kind}`);
  if (status === 'open') conditions.push(claimableSql(db));
  if (status === 'claimed') conditions.push(db`s.assigned_user_id is not null`);
  if (status === 'urgent') conditions.push(db`s.priority in ('urgent', 'emergency')`);
  if (status === 'emergency') conditions.push(db`s.priority = 'emergency'`);
  if (status === 'pending') conditions.push(db`s.status = 'pending'`);
  return conditions;
}

/**
 * What staff may see: their own shifts not yet completed or expired, and the open shifts that have
 * not ended. Whether a shift has ended is the domain's DST-aware rule, so the few open shifts of
 * yesterday and today are checked here and the ended ones left out by id.
 */
async function visibleToStaff(db: Db, who: Principal, at: Date): Promise<{ visible: Condition }> {
  const recent = (await db`
    select id, date, start_time, end_time from rm_shifts s
    where ${claimableSql(db)} and s.date >= ${notBefore(at)} and s.date <= ${easternToday(at)}`) as unknown as ShiftRow[];
  const ended = recent.filter((row) => hasEnded(row, at)).map((row) => row.id);
  // Wrapped: a query returned from an async function would be run by the await.
  return {
    visible: db`s.status not in ('expired', 'completed') and (s.assigned_user_id = ${who.userId}
      or (${claimableSql(db)} and s.date >= ${notBefore(at)} and not (s.id = any(${db.array(ended)}::text[]))))`,
  };
}

/**
 * One page of the Available Shifts list as `who` may see it, read in one snapshot (`db`): the
 * shifts dated inside the window that pass the filters, in list order after the cursor. The
 * filtering, the order and the page are PostgreSQL's, so a page costs the same however long
 * the history behind it.
 */
export async function shiftListPage(
  db: Db,
  who: Principal,
  filters: ShiftFilters,
  page: ReturnType<typeof pageRequest>,
  at: Date,
) {
  const visible = can(who, 'seeShiftHolder') ? undefined : (await visibleToStaff(db, who, at)).visible;
  const conditions = [visible, ...datedWithin(db, page), ...filtered(db, filters)];
  const [{ items, next }, total] = await Promise.all([
    onePage(db, conditions, page),
    countOf(db, conditions),
  ]);
  return { items, next, total };
}

/** One page of the claims awaiting approval at `location` (every location when not given). */
export function pendingPage(db: Db, location: string | undefined, page: ReturnType<typeof pageRequest>) {
  return onePage(db, pendingWhere(db, location, page), page);
}

/** How many claims await approval at `location` (every location when not given) within the page's dates. */
export async function pendingCount(
  db: Db,
  location: string | undefined,
  page: ReturnType<typeof pageRequest>,
): Promise<number> {
  return countOf(db, pendingWhere(db, location, page));
}

/** How many shifts pass every one of `conditions`: the whole list's length, whatever page is read. */
async function countOf(db: Db, conditions: (Condition | undefined)[]): Promise<number> {
  const where = allOf(db, conditions);
  const [row] = await db<{ count: number }[]>`
    select count(*)::int as count from rm_shifts s ${where ? db`where ${where}` : db``}`;
  return row?.count ?? 0;
}

function pendingWhere(db: Db, location: string | undefined, page: ReturnType<typeof pageRequest>) {
  const at = location === undefined ? undefined : db`s.location = ${location}`;
  return [db`s.status = 'pending'`, at, ...datedWithin(db, page)];
}

async function onePage(
  db: Db,
  conditions: (Condition | undefined)[],
  { after, limit }: ReturnType<typeof pageRequest>,
) {
  const where = allOf(db, [...conditions, after ? keyAfter(db, after) : undefined]);
  const rows =
    (await db`${shiftsWithHolders(db, where)} order by ${listOrder(db)} limit ${limit + 1}`) as unknown as ShiftRow[];
  return pageFrom(rows, limit, sortKeyOf);
}
