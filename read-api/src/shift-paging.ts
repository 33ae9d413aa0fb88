import { isCalendarDate } from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { Sql, TransactionSql } from 'postgres';
import { z } from 'zod';
import { priorityRankSql } from './shift-queries';

type Db = Sql | TransactionSql;

/** A page of a shift list holds at most this many shifts unless the caller asks for fewer. */
export const DEFAULT_PAGE_SIZE = 500;
const MAX_PAGE_SIZE = 1000;

const eastern = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} is a date written YYYY-MM-DD`)
    .refine(isCalendarDate, `${label} is not a real date`);

/** The paging parameters of a shift list (docs/product.md §4.7.1): a window of Eastern dates, then pages. */
export const pagingQuery = {
  from: eastern('from').optional().describe('First Eastern date of the window (YYYY-MM-DD), included.'),
  to: eastern('to').optional().describe('Last Eastern date of the window (YYYY-MM-DD), included.'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `limit must be between 1 and ${MAX_PAGE_SIZE}`)
    .optional()
    .describe(`Shifts per page, ${DEFAULT_PAGE_SIZE} when not given.`),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,400}$/, 'cursor is not one this server gave')
    .optional()
    .describe('Where the page starts: copied from the `Link` header of the page before.'),
};

type Paging = { [K in keyof typeof pagingQuery]?: z.output<(typeof pagingQuery)[K]> };

/** A shift's place in a list: its priority rank, date, start time and id (the id breaks ties). */
export type SortKey = [rank: number, date: string, startTime: string, id: string];

// Text compared byte by byte ("C"), whatever the database's collation, as the cursor's key is.
const key = (db: Db) =>
  db`(${priorityRankSql(db)}, s.date collate "C", s.start_time collate "C", s.id collate "C")`;

/** docs/product.md §4.7's order in SQL, over `rm_shifts` read as `s`, made total by the id. */
export function listOrder(db: Db) {
  return db`${priorityRankSql(db)}, s.date collate "C", s.start_time collate "C", s.id collate "C"`;
}

/** The shifts that come after `after` in the list order. */
export function keyAfter(db: Db, [rank, date, startTime, id]: SortKey) {
  return db`${key(db)} > (${rank}::int, ${date}::text, ${startTime}::text, ${id}::text)`;
}

const encode = (key: SortKey) => Buffer.from(JSON.stringify(key)).toString('base64url');

function decode(cursor: string): SortKey {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === 4 &&
      Number.isInteger(key[0]) &&
      key.slice(1).every((part) => typeof part === 'string')
    ) {
      return key as SortKey;
    }
  } catch {
    // not JSON: refused below
  }
  throw new HttpError(400, 'cursor is not one this server gave');
}

/** The window and page asked for, checked: `from` must not come after `to`. */
export function pageRequest(query: Paging) {
  if (query.from && query.to && query.from > query.to) throw new HttpError(400, 'from must not be after to');
  return {
    from: query.from,
    to: query.to,
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    after: query.cursor === undefined ? undefined : decode(query.cursor),
  };
}

/**
 * The page in `rows`, read in list order with one row more than `limit`: that row, when there,
 * says a page follows. A cursor names a place in the order, not an offset, so shifts posted
 * between two requests never repeat or push another shift off a page; `next` is the cursor of
 * the following page, absent on the last one.
 */
export function pageFrom<T>(
  rows: T[],
  limit: number,
  keyOf: (item: T) => SortKey,
): { items: T[]; next?: string } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? encode(keyOf(last)) : undefined };
}

/** The `Link` header announcing the next page: the same query with that page's cursor. */
export function nextLink(path: string, query: Record<string, string | number | undefined>, cursor: string) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, cursor })) {
    if (value !== undefined) params.set(name, String(value));
  }
  return `<${path}?${params}>; rel="next"`;
}
