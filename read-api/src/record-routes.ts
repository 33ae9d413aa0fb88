import {
  answers,
  auditPageViewSchema,
  can,
  cleanText,
  completedShiftViewSchema,
  easternMidnight,
  easternToday,
  emailQueueStatusViewSchema,
  isCalendarDate,
  isSystemActorId,
  nextDate,
  outboxMailViewSchema,
  type ShiftType,
} from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { now, type ReadApiDeps, reader, readModels } from './context';
import { DEFAULT_PAGE_SIZE, nextLink, pagingQuery } from './shift-paging';

const completedFilters = z.object({
  location: cleanText({ label: 'Location', max: 200 }).optional(),
  dateRange: z.enum(['all', 'today', 'week', 'month']).optional(),
  sort: z.enum(['newest', 'oldest', 'location', 'duration']).optional(),
  limit: pagingQuery.limit,
  cursor: pagingQuery.cursor,
});

/** Where a page of completed shifts starts: the cursor counts the records of the pages before. */
function completedOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new HttpError(400, 'cursor is not one this server gave');
  return Number(cursor);
}

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD')
  .refine(isCalendarDate, 'No such date');
const auditFilters = z.object({
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .max(1_000_000_000, 'offset is too large')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(100),
  userId: cleanText({ label: 'User', max: 100 }).optional(),
  action: cleanText({ label: 'Action', max: 60 }).optional(),
  entityType: cleanText({ label: 'Entity type', max: 40 }).optional(),
  startDate: date.optional(),
  endDate: date.optional(),
});

const SEVEN_DAYS_MS = 7 * 86_400_000;

/** The Completed Shifts date ranges, in Eastern time: today, the last 7 days, this month. */
function completionWindow(range: 'all' | 'today' | 'week' | 'month', at: Date): [Date, Date] {
  const today = easternToday(at);
  if (range === 'today') return [easternMidnight(today), easternMidnight(nextDate(today))];
  if (range === 'week') return [new Date(at.getTime() - SEVEN_DAYS_MS), at];
  if (range === 'month') {
    const [year, month] = today.split('-').map(Number) as [number, number];
    const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
    return [easternMidnight(`${today.slice(0, 7)}-01`), easternMidnight(next)];
  }
  return [new Date(0), new Date('9999-12-31T00:00:00Z')];
}

export const recordReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const { sql } = deps;

  app.get(
    '/api/completed-shifts',
    {
      schema: {
        tags: ['completed shifts'],
        summary: 'Completed shifts',
        description: `Developers and super admins read the completed-shift records not yet reported or cleared, filtered by location and date range (today, week, month) and sorted by newest, oldest, location or duration. The answer is one page of at most \`limit\` records (${DEFAULT_PAGE_SIZE} when not given); when more follow, the \`Link\` header names the next page (rel="next").`,
        querystring: completedFilters,
        response: answers(z.array(completedShiftViewSchema)),
      },
    },
    async (request, reply) => {
      const who = await reader(request, deps, readModels.completed, 'viewCompletedShifts');
      reply.header('cache-control', 'no-store');
      const { location, dateRange, sort, limit = DEFAULT_PAGE_SIZE, cursor } = request.query;
      const offset = completedOffset(cursor);
      const [since, until] = completionWindow(dateRange ?? 'all', now(deps));
      const order = {
        newest: sql`c.shift_completed_at desc, c.date desc, c.start_time desc, c.id`,
        oldest: sql`c.shift_completed_at, c.date, c.start_time, c.id`,
        location: sql`c.location, c.date, c.start_time, c.id`,
        duration: sql`c.hours_worked desc, c.date, c.start_time, c.id`,
      }[sort ?? 'newest'];
      const rows = await sql<
        {
          id: string;
          original_shift_id: string;
          location: string;
          date: string;
          start_time: string;
          end_time: string;
          type: ShiftType;
          requirements: string | null;
          notes: string | null;
          assigned_user_id: string | null;
          created_by_id: string | null;
          shift_completed_at: Date;
          logged_at: Date;
          hours_worked: number;
          reported: boolean;
          reported_at: Date | null;
          first_name: string | null;
          last_name: string | null;
        }[]
      >`
      select c.*, u.first_name, u.last_name from rm_completed_shifts c left join rm_users u on u.id = c.assigned_user_id
      where not c.archived and c.shift_completed_at >= ${since} and c.shift_completed_at < ${until} ${location && location !== 'all' ? sql`and c.location = ${location}` : sql``}
      order by ${order} offset ${offset} limit ${limit + 1}`;
      if (rows.length > limit) {
        const query = { location, dateRange, sort, limit };
        reply.header('link', nextLink('/api/completed-shifts', query, String(offset + limit)));
      }
      return rows.slice(0, limit).map((c) => ({
        id: c.id,
        originalShiftId: can(who, 'seeOriginalShiftId') ? c.original_shift_id : null,
        location: c.location,
        date: c.date,
        startTime: c.start_time,
        endTime: c.end_time,
        type: c.type,
        requirements: c.requirements,
        notes: c.notes,
        assignedUserId: c.assigned_user_id,
        assignedUserName: c.assigned_user_id ? `${c.first_name ?? 'Deleted'} ${c.last_name ?? 'user'}` : null,
        createdById: c.created_by_id,
        shiftCompletedAt: c.shift_completed_at,
        loggedAt: c.logged_at,
        hoursWorked: c.hours_worked,
        reported: c.reported,
        reportedAt: c.reported_at,
      }));
    },
  );

  app.get(
    '/api/audit-logs',
    {
      schema: {
        tags: ['audit log'],
        summary: 'Audit log',
        description:
          'Developers and super admins read the audit trail, newest first, in pages of at most 100: the last 7 days unless a start date is given, filtered by user, action, entity type and dates. Answers the page, the total count and whether more follow.',
        querystring: auditFilters,
        response: answers(auditPageViewSchema),
      },
    },
    async (request) => {
      await reader(request, deps, readModels.audit, 'viewAuditLogs');
      const { offset, limit, userId, action, entityType, startDate, endDate } = request.query;
      const from = startDate ? easternMidnight(startDate) : new Date(now(deps).getTime() - SEVEN_DAYS_MS);
      const until = endDate ? new Date(easternMidnight(endDate).getTime() + 86_400_000) : null;
      const where = sql`
      where a.timestamp >= ${from}
      ${until ? sql`and a.timestamp < ${until}` : sql``}
      ${userId && userId !== 'all' ? sql`and a.user_id = ${userId}` : sql``}
      ${action && action !== 'all' ? sql`and a.action = ${action}` : sql``}
      ${entityType && entityType !== 'all' ? sql`and a.entity_type = ${entityType}` : sql``}`;
      const [total] = await sql<
        { count: number }[]
      >`select count(*)::int as count from rm_audit_logs a ${where}`;
      const rows = await sql<
        {
          id: bigint;
          user_id: string;
          user_role: string;
          action: string;
          entity_type: string;
          entity_id: string;
          description: string;
          timestamp: Date;
          username: string | null;
          first_name: string | null;
          last_name: string | null;
          email: string | null;
        }[]
      >`
      select a.*, u.username, u.first_name, u.last_name, u.email
      from rm_audit_logs a left join rm_users u on u.id = a.user_id
      ${where}
      order by a.timestamp desc, a.id desc
      offset ${offset} limit ${limit}`;
      const totalCount = total?.count ?? 0;
      const details = await deps.auditDetails(rows.map((a) => a.id.toString()));
      return {
        logs: rows.map((a) => {
          const system = isSystemActorId(a.user_id);
          return {
            id: a.id.toString(),
            userId: a.user_id,
            action: a.action,
            entityType: a.entity_type,
            entityId: a.entity_id,
            description: a.description,
            details: details.get(a.id.toString()) ?? {},
            timestamp: a.timestamp,
            userName: system ? 'System' : (a.username ?? 'Deleted user'),
            userFirstName: system ? 'System' : (a.first_name ?? 'Deleted'),
            userLastName: system ? '' : (a.last_name ?? 'user'),
            userRole: a.user_role,
            userEmail: a.email,
          };
        }),
        totalCount,
        hasMore: offset + rows.length < totalCount,
      };
    },
  );
};

/** Developer tools: the e-mail queue's state and the outbox of mails kept when no SMTP server is set. */
export const mailReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const { sql } = deps;
  const queueStatusSchema = {
    tags: ['developer tools'],
    summary: 'E-mail queue status',
    description:
      'Developers read the e-mail queue: how many mails in all, ready to send, waiting and failed, and since when the oldest has waited.',
    response: answers(emailQueueStatusViewSchema),
  };
  app.get('/api/email-queue/status', { schema: queueStatusSchema }, async (request) => {
    await reader(request, deps, [], 'developerTools');
    const [row] = await sql<
      { total: number; ready: number; pending: number; failed: number; oldest: Date | null }[]
    >`
      select count(*)::int as total,
        count(*) filter (where status = 'queued' and next_attempt_at <= now())::int as ready,
        count(*) filter (where status = 'queued')::int as pending,
        count(*) filter (where status = 'failed')::int as failed,
        min(created_at) filter (where status = 'queued') as oldest
      from email_deliveries`;
    return {
      total: row?.total ?? 0,
      ready: row?.ready ?? 0,
      pending: row?.pending ?? 0,
      failed: row?.failed ?? 0,
      processing: (row?.ready ?? 0) > 0,
      oldestWaiting: row?.oldest ?? null,
    };
  });

  app.get(
    '/api/email-outbox',
    {
      schema: {
        tags: ['developer tools'],
        summary: 'E-mail outbox',
        description:
          'Developers read the 200 most recent e-mails, newest first, optionally of one status (outbox, queued, sent, failed); with no SMTP server configured, e-mails are kept here.',
        querystring: z.object({ status: z.enum(['outbox', 'queued', 'sent', 'failed']).optional() }),
        response: answers(z.array(outboxMailViewSchema)),
      },
    },
    async (request) => {
      await reader(request, deps, [], 'developerTools');
      const rows = await sql<
        {
          id: bigint;
          recipient: string;
          kind: string;
          subject: string;
          text_body: string;
          status: string;
          attempts: number;
          last_error: string | null;
          created_at: Date;
          sent_at: Date | null;
        }[]
      >`
        select id, recipient, kind, subject, text_body, status, attempts, last_error, created_at, sent_at from email_deliveries
        ${request.query.status ? sql`where status = ${request.query.status}` : sql``}
        order by id desc limit 200`;
      return rows.map((r) => ({
        id: r.id.toString(),
        to: r.recipient,
        kind: r.kind,
        subject: r.subject,
        text: r.text_body,
        status: r.status,
        attempts: r.attempts,
        lastError: r.last_error,
        createdAt: r.created_at,
        sentAt: r.sent_at,
      }));
    },
  );
};
