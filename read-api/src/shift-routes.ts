import {
  answers,
  can,
  cleanText,
  dashboardStatsViewSchema,
  dropRequestViewSchema,
  easternToday,
  entityId,
  inProgressShiftViewSchema,
  myShiftsViewSchema,
  pendingShiftViewSchema,
  previousDate,
  quarterHours,
  shiftMinutes,
  shiftViewSchema,
} from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Sql, TransactionSql } from 'postgres';
import { z } from 'zod';
import { readMarks } from './consistency';
import { now, type ReadApiDeps, reader, readModels } from './context';
import { rankPending } from './pending-ranking';
import { ResponseCache, sendCached } from './response-cache';
import { pendingCount, pendingPage, shiftListPage } from './shift-list';
import { DEFAULT_PAGE_SIZE, nextLink, pageRequest, pagingQuery } from './shift-paging';
import {
  byUrgencyThenTime,
  hasEnded,
  isOpen,
  progress,
  type ShiftRow,
  shiftsWithHolders,
  shiftView,
  staffNameOf,
  weekWindow,
} from './shift-queries';
import { inOneSnapshot } from './snapshot';

const locationFilter = cleanText({ label: 'Location', max: 200 });
const shiftFilters = z.object({
  location: locationFilter.optional(),
  type: cleanText({ label: 'Type', max: 40 }).optional(),
  status: z.enum(['all', 'open', 'claimed', 'urgent', 'pending', 'emergency']).optional(),
});
const shiftListQuery = shiftFilters.extend(pagingQuery);
// Shifts that have not ended are dated today or later, or yesterday for an overnight one.
const notBefore = (at: Date) => previousDate(easternToday(at));
// My Shifts shows this many of the latest shifts worked.
const HISTORY_SIZE = 5;
// Administrators whose assigned residence is remembered at most; past it, all are forgotten at once.
const REMEMBERED_ADMINS = 1_000;

export const shiftReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const { sql } = deps;
  const shifts = async (where?: Parameters<typeof shiftsWithHolders>[1]) =>
    (await shiftsWithHolders(sql, where)) as unknown as ShiftRow[];

  // GET /api/shifts is read by every open screen after every change notice: its finished pages are
  // kept until the read models move on.
  const lists = new ResponseCache();
  const pendingLists = new ResponseCache();
  const myShifts = new ResponseCache();

  // Each admin's assigned residence, kept with where the users and residences read models stood
  // before it was read, so it is read again as soon as either moves on.
  const assignments = new Map<string, { marks: string; name: string | undefined }>();
  const assignedResidence = async (userId: string): Promise<string | undefined> => {
    const marks = (await deps.positions.marks(readModels.users)).key;
    const known = assignments.get(userId);
    if (known?.marks === marks) return known.name;
    const [me] = await sql<{ name: string | null }[]>`
      select r.name from rm_users u left join rm_residences r on r.id = u.assigned_residence_id where u.id = ${userId}`;
    const name = me?.name ?? undefined;
    if (assignments.size >= REMEMBERED_ADMINS) assignments.clear();
    assignments.set(userId, { marks, name });
    return name;
  };

  app.get(
    '/api/shifts',
    {
      schema: {
        tags: ['shifts'],
        summary: 'List shifts',
        description: `The Available Shifts list, emergency first, then urgent, then by date and start time: administrators see every shift, staff the shifts they may claim and their own. Filters by location, type (AM, PM, Overnight, Residential, Day Program) and status (open, claimed, urgent, emergency, pending). \`from\` and \`to\` keep the shifts dated between two Eastern dates, both included. The answer is one page of at most \`limit\` shifts (${DEFAULT_PAGE_SIZE} when not given, so a call without paging parameters is bounded); when more follow, the \`Link\` header names the next page (rel="next"), and the last page has none. \`X-Total-Count\` says how many shifts the filters keep on every page together, so a screen can count the whole list while it holds only its first page.`,
        querystring: shiftListQuery,
        response: answers(z.array(shiftViewSchema)),
      },
    },
    async (request, reply) => {
      const who = await reader(request, deps, readModels.shifts);
      const at = now(deps);
      const admin = can(who, 'seeShiftHolder');
      const { location, type, status, from, to, limit, cursor } = request.query;
      // Admins see one list (shaped by their role); staff each see their own shifts in it, but
      // the open shifts alone (Available Shifts, on every staff screen) hold no one's and are the
      // same for all: one read serves every staff member until the read model moves.
      const viewer = admin || status === 'open' ? `${who.role}:${who.superAdmin}` : `staff:${who.userId}`;
      // The clock changes the list only at whole minutes: shifts start and end on them.
      const page = pageRequest(request.query);
      const minute = Math.floor(at.getTime() / 60_000);
      const variant = JSON.stringify([viewer, location, type, status, from, to, page.limit, cursor, minute]);
      const marks = await deps.positions.marks(readModels.shifts);
      const body = await lists.body(variant, marks, () =>
        inOneSnapshot(sql, async (tx) => {
          const [{ items, next, total }, marks] = await Promise.all([
            shiftListPage(tx, who, request.query, page, at),
            readMarks(tx, readModels.shifts),
          ]);
          const shifts = items.map((row) => shiftView(row, who));
          const query = { location, type, status, from, to, limit: limit ?? page.limit };
          return {
            marks,
            value: shifts,
            headers: {
              'x-total-count': String(total),
              ...(next ? { link: nextLink('/api/shifts', query, next) } : {}),
            },
          };
        }),
      );
      return sendCached(request, reply, body);
    },
  );

  app.get(
    '/api/shifts/pending',
    {
      schema: {
        tags: ['shifts'],
        summary: 'Pending approvals',
        description: `Administrators read the claims awaiting approval, emergency first, with the claimant's name. Each claim carries its \`rank\` among the claims awaiting approval for the same slot (the same location, date, start and end; \`slotClaims\` of them), and \`rankReasons\`: whether the claimant holds every required credential, their hours already that Sunday-to-Saturday week, their rest before and after the shift, and when they claimed it against the others. Developers and super admins may filter by location; a plain admin sees the claims of the residence assigned to them, or all when none is. Paged as \`GET /api/shifts\` is: \`from\` and \`to\` keep the shifts dated between two Eastern dates, both included; at most \`limit\` claims (${DEFAULT_PAGE_SIZE} when not given), and a \`Link\` header (rel="next") names the next page when more follow. \`X-Total-Count\` says how many claims the filters keep on every page together, for the screen's count while it shows the first pages only.`,
        querystring: z.object({ location: locationFilter.optional(), ...pagingQuery }),
        response: answers(z.array(pendingShiftViewSchema)),
      },
    },
    async (request, reply) => {
      const who = await reader(request, deps, readModels.pending, 'viewPendingApprovals');
      let location =
        request.query.location && request.query.location !== 'all' ? request.query.location : undefined;
      // A plain admin sees the residence assigned to them, or everything when none is.
      if (!can(who, 'filterPendingByLocation')) location = await assignedResidence(who.userId);
      const page = pageRequest(request.query);
      const { location: asked, from, to, limit, cursor } = request.query;
      // Every admin of one role and residence reads the same page: kept as the shift list's are.
      const variant = JSON.stringify([
        who.role,
        who.superAdmin,
        location,
        asked,
        from,
        to,
        page.limit,
        cursor,
      ]);
      const marks = await deps.positions.marks(readModels.pending);
      const body = await pendingLists.body(variant, marks, () =>
        inOneSnapshot(sql, async (tx) => {
          const [{ items, next }, total, marks] = await Promise.all([
            pendingPage(tx, location, page),
            pendingCount(tx, location, page),
            readMarks(tx, readModels.pending),
          ]);
          const ranks = await rankPending(tx, items);
          const query = { location: asked, from, to, limit: limit ?? page.limit };
          return {
            marks,
            value: items.map((row) => ({
              ...shiftView(row, who),
              staffName: staffNameOf(row),
              ...(ranks.get(row.id) ?? { rank: 1, slotClaims: 1, rankReasons: [] }),
            })),
            headers: {
              'x-total-count': String(total),
              ...(next ? { link: nextLink('/api/shifts/pending', query, next) } : {}),
            },
          };
        }),
      );
      return sendCached(request, reply, body);
    },
  );

  const inProgressSchema = {
    tags: ['shifts'],
    summary: 'Shifts in progress',
    description:
      "Administrators read the shifts being worked now (a holder, and the current Eastern time between start and end), with the holder's name and the percentage complete.",
    response: answers(z.array(inProgressShiftViewSchema)),
  };
  app.get('/api/shifts/in-progress', { schema: inProgressSchema }, async (request) => {
    const who = await reader(request, deps, readModels.shifts, 'viewPendingApprovals');
    const at = now(deps);
    const current = sql`s.status = 'approved' and s.date >= ${notBefore(at)} and s.date <= ${easternToday(at)}`;
    return (await shifts(current))
      .map((row) => ({ row, percent: progress(row, at) }))
      .filter((entry): entry is { row: ShiftRow; percent: number } => entry.percent !== null)
      .sort((a, b) => byUrgencyThenTime(a.row, b.row))
      .map(({ row, percent }) => ({
        ...shiftView(row, who),
        staffName: row.first_name ? `${row.first_name} ${row.last_name}` : 'Unknown Staff',
        progressPercent: percent,
      }));
  });

  const statsSchema = {
    tags: ['shifts'],
    summary: 'Dashboard counts',
    description:
      "Any signed-in user reads how many shifts are open; administrators also read the emergency, urgent, covered, pending, in-progress and this month's counts and the coverage percentage.",
    response: answers(dashboardStatsViewSchema),
  };
  // Every administrator reads the same counts, and every staff member the same one: each is read
  // once while the shifts read model stands still, not by every screen that opens (thousands of
  // open shifts cost a read of every current one).
  const dashboardStats = new ResponseCache();
  app.get('/api/dashboard/stats', { schema: statsSchema }, async (request, reply) => {
    const who = await reader(request, deps, readModels.shifts);
    const at = now(deps);
    const admin = can(who, 'viewPendingApprovals');
    // The clock changes the counts only at whole minutes: shifts start and end on them.
    const variant = JSON.stringify([admin, Math.floor(at.getTime() / 60_000)]);
    const marks = await deps.positions.marks(readModels.shifts);
    const body = await dashboardStats.body(variant, marks, () =>
      inOneSnapshot(sql, async (tx) => {
        const [marks, value] = await Promise.all([readMarks(tx, readModels.shifts), statsOf(tx, admin, at)]);
        return { marks, value };
      }),
    );
    return sendCached(request, reply, body);
  });

  /** My Shifts: upcoming, this week, hours this week, and the last five worked. */
  const myShiftsSchema = {
    tags: ['shifts'],
    summary: 'My shifts',
    description:
      "The caller's upcoming shifts, how many fall this week (today and the 7 days after), the hours they add up to, and the 5 most recent shifts worked.",
    response: answers(myShiftsViewSchema),
  };
  app.get('/api/my-shifts', { schema: myShiftsSchema }, async (request, reply) => {
    const who = await reader(request, deps, readModels.shifts);
    const at = now(deps);
    // The clock moves a shift from upcoming to worked only at whole minutes.
    const minute = Math.floor(at.getTime() / 60_000);
    const variant = JSON.stringify([who.userId, who.role, who.superAdmin, minute]);
    const marks = await deps.positions.marks(readModels.shifts);
    const body = await myShifts.body(variant, marks, () =>
      inOneSnapshot(sql, async (tx) => {
        const [marks, value] = await Promise.all([
          readMarks(tx, readModels.shifts),
          ownShifts(tx, who.userId, who, at),
        ]);
        return { marks, value };
      }),
    );
    return sendCached(request, reply, body);
  });

  app.get(
    '/api/users/:id/shifts',
    {
      schema: {
        tags: ['users'],
        summary: "A user's upcoming shifts",
        description:
          "A user's upcoming shifts, by date and start time: one's own, or anyone's for administrators; anyone else is refused (403, 'You can only see your own shifts').",
        params: z.object({ id: entityId }),
        response: answers(z.array(shiftViewSchema)),
      },
    },
    async (request) => {
      const who = await reader(request, deps, readModels.shifts);
      if (request.params.id !== who.userId && !can(who, 'seeShiftHolder')) {
        throw new HttpError(403, 'You can only see your own shifts');
      }
      return (await ownShifts(sql, request.params.id, who, now(deps))).upcoming;
    },
  );

  /**
   * A person's upcoming shifts and their five latest worked, from two short reads however long
   * their history: the shifts dated yesterday on (which hold every shift not yet ended), and the
   * five latest before them.
   */
  async function ownShifts(
    db: Sql | TransactionSql,
    userId: string,
    who: Parameters<typeof shiftView>[1],
    at: Date,
  ) {
    const today = easternToday(at);
    const week = weekWindow(at);
    // Sent together: in a snapshot read (inOneSnapshot) they share one trip to the database.
    const [recent, older] = (await Promise.all([
      shiftsWithHolders(db, db`s.assigned_user_id = ${userId} and s.date >= ${notBefore(at)}`),
      db`${shiftsWithHolders(db, db`s.assigned_user_id = ${userId} and s.date < ${notBefore(at)}`)}
      order by s.date desc, s.start_time desc limit ${HISTORY_SIZE}`,
    ])) as unknown as [ShiftRow[], ShiftRow[]];
    const upcoming = recent
      .filter((r) => r.date >= today && r.status !== 'completed')
      .sort((a, b) => a.date.localeCompare(b.date) || a.start_time.localeCompare(b.start_time));
    const thisWeek = upcoming.filter((r) => r.date <= week.to);
    const minutes = thisWeek.reduce((sum, r) => sum + shiftMinutes(r.date, r.start_time, r.end_time), 0);
    const history = [...recent.filter((r) => r.status === 'completed' || hasEnded(r, at)), ...older]
      .sort((a, b) => b.date.localeCompare(a.date) || b.start_time.localeCompare(a.start_time))
      .slice(0, HISTORY_SIZE);
    return {
      upcoming: upcoming.map((r) => shiftView(r, who)),
      thisWeekCount: thisWeek.length,
      hoursThisWeek: quarterHours(minutes),
      history: history.map((r) => ({ ...shiftView(r, who), status: 'completed' as const })),
    };
  }

  const dropRequestsSchema = {
    tags: ['drop requests'],
    summary: 'Drop requests',
    description:
      'Administrators read the requests to drop a shift that await their answer, the oldest first, each with the staff member and the shift.',
    response: answers(z.array(dropRequestViewSchema)),
  };
  app.get('/api/admin/drop-requests', { schema: dropRequestsSchema }, async (request) => {
    await reader(request, deps, readModels.shifts, 'viewDropRequests');
    const rows = await shifts(sql`s.drop_requested and s.assigned_user_id is not null`);
    return rows
      .sort((a, b) => (a.drop_requested_at?.getTime() ?? 0) - (b.drop_requested_at?.getTime() ?? 0))
      .map((row) => ({
        id: row.id,
        shiftId: row.id,
        dropRequestedAt: row.drop_requested_at,
        staffName: staffNameOf(row),
        location: row.location,
        date: row.date,
        startTime: row.start_time,
        endTime: row.end_time,
        type: row.type,
        requirements: row.requirements,
        notes: row.notes,
        assignedUserId: row.assigned_user_id,
      }));
  });
};

/** The dashboard's counts as of `at`, read in one snapshot (`tx`); staff get the open shifts only. */
async function statsOf(tx: Sql, admin: boolean, at: Date) {
  const month = `${easternToday(at).slice(0, 7)}-%`;
  type Counts = { total: number; covered: number; pending: number; month: number };
  // Only shifts dated yesterday on can still be open or under way: the rest is counted in SQL.
  // Both reads are sent together, to share a trip in a snapshot read.
  const [current, [counts]] = await Promise.all([
    shiftsWithHolders(tx, tx`s.date >= ${notBefore(at)} and s.status <> 'expired'`) as unknown as Promise<
      ShiftRow[]
    >,
    admin
      ? tx<Counts[]>`
          select count(*)::int as total,
            count(*) filter (where assigned_user_id is not null)::int as covered,
            count(*) filter (where status = 'pending')::int as pending,
            count(*) filter (where date like ${month})::int as month
          from rm_shifts where status <> 'expired'`
      : Promise.resolve([] as Counts[]),
  ]);
  const open = current.filter((r) => isOpen(r) && !hasEnded(r, at));
  if (!admin) return { openShifts: open.length };
  const { total = 0, covered = 0, pending = 0, month: thisMonth = 0 } = counts ?? {};
  return {
    openShifts: open.length,
    emergencyShifts: open.filter((r) => r.priority === 'emergency').length,
    urgentShifts: open.filter((r) => r.priority === 'urgent').length,
    coveredShifts: covered,
    coveragePercent: total === 0 ? 0 : Math.round((covered / total) * 100),
    pendingApprovals: pending,
    totalShiftsThisMonth: thisMonth,
    inProgress: current.filter((r) => r.status === 'approved' && progress(r, at) !== null).length,
  };
}
