import {
  answers,
  type CoverageShift,
  type CoverageView,
  cleanText,
  coverageByWeek,
  coverageViewSchema,
  errorAnswer,
  isCalendarDate,
  isSeniorAdministrator,
  type Principal,
} from '@shiftcover/domain';
import { csv, HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Sql } from 'postgres';
import { z } from 'zod';
import { now, type ReadApiDeps, reader, readModels } from './context';

/** The longest range one request may cover: a year, leap day included. */
const MAX_RANGE_DAYS = 366;

const day = (label: string) =>
  z
    .string({ error: `${label} is required (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date written YYYY-MM-DD`)
    .refine(isCalendarDate, `${label} is not a real date`);

const coverageQuery = z
  .object({
    from: day('from'),
    to: day('to'),
    // A residence's name, or `all` (what the caller may see).
    residence: cleanText({ label: 'Residence', max: 200 }).optional(),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to' })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= (MAX_RANGE_DAYS - 1) * 86_400_000, {
    message: `The range may cover at most ${MAX_RANGE_DAYS} days`,
  });
type CoverageQuery = z.output<typeof coverageQuery>;

interface CoverageRow {
  location: string;
  date: string;
  starts_at: Date;
  ends_at: Date;
  posted_at: Date;
  filled_at: Date | null;
  holds: Array<{ userId: string; from: string; to: string | null }>;
  drops: Array<{ userId: string; requestedAt: string; approvedAt: string }>;
}

const ms = (at: string | Date) => new Date(at).getTime();

function coverageShift(row: CoverageRow): CoverageShift {
  return {
    location: row.location,
    date: row.date,
    startsAt: ms(row.starts_at),
    endsAt: ms(row.ends_at),
    postedAt: ms(row.posted_at),
    filledAt: row.filled_at === null ? null : ms(row.filled_at),
    holds: row.holds.map((h) => ({
      userId: h.userId,
      from: ms(h.from),
      to: h.to === null ? null : ms(h.to),
    })),
    drops: row.drops.map((d) => ({
      userId: d.userId,
      requestedAt: ms(d.requestedAt),
      approvedAt: ms(d.approvedAt),
    })),
  };
}

/**
 * The residences the caller may read: every one for developers and super admins; a plain admin the
 * one assigned to them, or every one when none is (as Pending Approvals shows them).
 */
async function visibleResidences(sql: Sql, who: Principal): Promise<string[] | 'all'> {
  if (isSeniorAdministrator(who)) return 'all';
  const [me] = await sql<{ name: string | null }[]>`
    select r.name from rm_users u left join rm_residences r on r.id = u.assigned_residence_id where u.id = ${who.userId}`;
  return me?.name ? [me.name] : 'all';
}

async function coverage(sql: Sql, who: Principal, query: CoverageQuery, at: Date): Promise<CoverageView> {
  const visible = await visibleResidences(sql, who);
  const asked = query.residence && query.residence !== 'all' ? query.residence : undefined;
  if (asked && visible !== 'all' && !visible.includes(asked))
    throw new HttpError(403, 'Admins see the analytics of their own residence only');
  const only = asked ? [asked] : visible === 'all' ? undefined : visible;
  const rows = await sql<CoverageRow[]>`
    select location, date, starts_at, ends_at, posted_at, filled_at, holds, drops from rm_coverage_shifts
    where date >= ${query.from} and date <= ${query.to} ${only ? sql`and location = any(${only})` : sql``}`;
  const weeks = coverageByWeek(rows.map(coverageShift), at);
  const staff = [...new Set(weeks.flatMap((w) => w.hoursByStaff.map((h) => h.userId)))];
  const people =
    staff.length === 0
      ? []
      : await sql<{ id: string; first_name: string; last_name: string }[]>`
          select id, first_name, last_name from rm_users where id = any(${staff})`;
  const names = new Map(people.map((p) => [p.id, `${p.first_name} ${p.last_name}`]));
  return {
    from: query.from,
    to: query.to,
    residences: [...new Set(weeks.map((w) => w.residence))].sort(),
    weeks: weeks.map((w) => ({
      ...w,
      hoursByStaff: w.hoursByStaff.map((h) => ({ ...h, name: names.get(h.userId) ?? 'Deleted user' })),
    })),
  };
}

const percent = (rate: number) => Math.round(rate * 1000) / 10;
const orBlank = (value: number | null) => value ?? '';

/** The weeks as the CSV download writes them: one row per residence and week. */
function coverageCsv(view: CoverageView): string {
  return csv([
    [
      'Week starting (Monday)',
      'Residence',
      'Shifts posted',
      'Filled',
      'Unfilled at start',
      'Fill rate (%)',
      'Median hours to fill',
      '90th percentile hours to fill',
      'Drops under 24 h notice',
      'Hours by staff member',
    ],
    ...view.weeks.map((w) => [
      w.weekStart,
      w.residence,
      w.posted,
      w.filled,
      w.unfilledAtStart,
      percent(w.fillRate),
      orBlank(w.medianHoursToFill),
      orBlank(w.p90HoursToFill),
      w.lateDrops,
      w.hoursByStaff.map((h) => `${h.name}: ${h.hours}`).join('; '),
    ]),
  ]);
}

const description = `Administrators read how well shifts were covered, per residence and Eastern week (Monday to Sunday), for the shifts dated from \`from\` to \`to\` (both included, at most ${MAX_RANGE_DAYS} days): shifts posted, filled (an approved holder at the start, or now for a shift yet to start), unfilled at start, the fill rate, the median and 90th percentile hours from posting to the first approved holder, drops approved on a request made under 24 hours before the start, and the hours of each staff member. Developers and super admins read every residence, or the one named by \`residence\`; a plain admin the residence assigned to them (every residence when none is).`;

export const analyticsReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const { sql } = deps;

  app.get(
    '/api/analytics/coverage',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Coverage analytics',
        description,
        querystring: coverageQuery,
        response: answers(coverageViewSchema),
      },
    },
    async (request) => {
      const who = await reader(request, deps, readModels.analytics, 'viewCoverageAnalytics');
      return coverage(sql, who, request.query, now(deps));
    },
  );

  app.get(
    '/api/analytics/coverage.csv',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Coverage analytics as CSV',
        description: `The figures of \`GET /api/analytics/coverage\` as a CSV download, one row per residence and week. ${description}`,
        querystring: coverageQuery,
        response: {
          200: { description: 'The CSV file', content: { 'text/csv': { schema: z.string() } } },
          '4xx': errorAnswer,
          '5xx': errorAnswer,
        },
      },
    },
    async (request, reply) => {
      const who = await reader(request, deps, readModels.analytics, 'viewCoverageAnalytics');
      const view = await coverage(sql, who, request.query, now(deps));
      const { from, to } = request.query;
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="coverage-${from}-to-${to}.csv"`)
        .header('cache-control', 'no-store');
      return coverageCsv(view);
    },
  );
};
