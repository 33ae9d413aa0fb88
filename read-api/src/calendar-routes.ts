import {
  answers,
  calendarFeedStatusViewSchema,
  easternToday,
  errorAnswer,
  shiftInterval,
} from '@shiftcover/domain';
import { feedTokenHash, HttpError } from '@shiftcover/platform';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { now, type ReadApiDeps, reader } from './context';
import { type CalendarEntry, calendarText } from './ics';

/** A calendar keeps what its feed lists and drops the rest: the last month of shifts worked stays in it. */
const HISTORY_DAYS = 30;
// Calendars poll on their own schedule; an answer kept longer than this could hide a change.
const CACHE_CONTROL = 'private, max-age=60';
const NOT_FOUND = 'Calendar feed not found';
const DAY_MS = 86_400_000;

interface FeedShift {
  id: string;
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  type: string;
  requirements: string | null;
  notes: string | null;
  drop_requested: boolean;
  updated_at: Date;
  address: string | null;
  sequence: number;
}

function entry(shift: FeedShift): CalendarEntry {
  const { start, end } = shiftInterval(shift.date, shift.start_time, shift.end_time);
  const facts = [
    `Residence: ${shift.location}`,
    shift.requirements ? `Requirements: ${shift.requirements}` : null,
    shift.notes ? `Notes: ${shift.notes}` : null,
    shift.drop_requested ? 'Drop requested: waiting for an admin' : null,
  ];
  return {
    uid: `${shift.id}@shift-coverage`,
    sequence: shift.sequence,
    changedAt: shift.updated_at,
    start,
    end,
    summary: `${shift.type} shift at ${shift.location}`,
    location: shift.address ? `${shift.location}, ${shift.address}` : shift.location,
    description: facts.filter((fact) => fact !== null).join('\n'),
  };
}

/**
 * Calendar feeds (docs/product.md §2.11.1). The feed itself is read by calendar apps, which cannot
 * sign in: its secret address is the only key, found by its digest, and anything that is not a
 * working address answers the same 404.
 */
export const calendarReadRoutes: FastifyPluginAsyncZod<ReadApiDeps> = async (app, deps) => {
  const { sql } = deps;

  app.get(
    '/api/calendar-feed',
    {
      schema: {
        tags: ['calendar'],
        summary: 'My calendar feed',
        description:
          "Whether the caller has a calendar feed, and since when. The feed's address is shown only when it is made.",
        response: answers(calendarFeedStatusViewSchema),
      },
    },
    async (request) => {
      const who = await reader(request, deps, ['calendar_feeds']);
      const [feed] = await sql<Array<{ created_at: Date }>>`
        select created_at from rm_calendar_feeds where user_id = ${who.userId}`;
      return { active: feed !== undefined, createdAt: feed?.created_at ?? null };
    },
  );

  app.get(
    '/api/calendar/:file',
    {
      schema: {
        tags: ['calendar'],
        summary: 'A calendar feed',
        description: `The iCalendar feed (\`text/calendar\`) at a person's secret address, \`/api/calendar/{token}.ics\`, without signing in: their approved shifts not yet ended and those of the last ${HISTORY_DAYS} days, in Eastern time with its VTIMEZONE. A revoked, replaced or unknown address answers 404.`,
        params: z.object({ file: z.string() }),
        response: {
          200: {
            description: 'The calendar',
            content: { 'text/calendar': { schema: z.string() } },
          },
          '4xx': errorAnswer,
          '5xx': errorAnswer,
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const hash = file.endsWith('.ics') ? feedTokenHash(file.slice(0, -'.ics'.length)) : null;
      if (hash === null) throw new HttpError(404, NOT_FOUND);
      const [feed] = await sql<Array<{ user_id: string }>>`
        select user_id from rm_calendar_feeds where token_hash = ${hash}`;
      if (!feed) throw new HttpError(404, NOT_FOUND);
      const from = easternToday(new Date(now(deps).getTime() - HISTORY_DAYS * DAY_MS));
      const shifts = await sql<FeedShift[]>`
        select s.id, s.location, s.date, s.start_time, s.end_time, s.type, s.requirements, s.notes,
          s.drop_requested, s.updated_at, r.address, coalesce(c.sequence, 0) as sequence
        from rm_shifts s
        left join rm_calendar_sequences c on c.shift_id = s.id
        left join lateral (select address from rm_residences where name = s.location limit 1) r on true
        where s.assigned_user_id = ${feed.user_id} and s.approved and s.status in ('approved', 'completed')
          and s.date >= ${from}
        order by s.date, s.start_time, s.id`;
      reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="shifts.ics"')
        .header('cache-control', CACHE_CONTROL);
      return calendarText('My shifts (Shift Coverage)', shifts.map(entry));
    },
  );
};
