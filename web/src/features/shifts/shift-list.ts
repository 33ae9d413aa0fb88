import {
  type InfiniteData,
  InfiniteQueryObserver,
  infiniteQueryOptions,
  type QueryClient,
} from '@tanstack/react-query';
import { api, itemsOnce, type Page, withQuery } from '../../api/client';
import { keys } from '../../api/keys';
import type { Shift } from '../../api/types';
import type { ShiftFilters } from './shift-filters';

/** The Available Shifts list as far as its pages have come (docs/product.md §2.7). */
export interface ShiftList {
  shifts: Shift[];
  /** Every page is in, so counts of `shifts` are the list's own rather than the least it holds. */
  complete: boolean;
  /** How many shifts the whole list holds, as the server counted them with the first page. */
  total?: number;
}

/** The list's shifts in its order, each once (`itemsOnce`), whether every page is in, and its length. */
export function shiftListOf({ pages }: InfiniteData<Page<Shift>>): ShiftList {
  const shifts = itemsOnce(pages);
  const complete = pages.length > 0 && pages[pages.length - 1]!.next === null;
  const total = pages[0]?.total;
  return total === undefined ? { shifts, complete } : { shifts, complete, total };
}

/** The first page: twice the cards the screen draws at first, small enough to come at once. */
export const FIRST_PAGE_SIZE = 100;
/** Each later page: four more draws of fifty cards, asked for while the last ones held are on screen. */
export const LATER_PAGE_SIZE = 200;

/** The answer's next link asking for a later page's size: a cursor names a place, not a count. */
export function laterPage(next: string): string {
  const url = new URL(next, 'http://app');
  url.searchParams.set('limit', String(LATER_PAGE_SIZE));
  return `${url.pathname}${url.search}`;
}

/**
 * GET /api/shifts with the screen's filters, a page at a time following the `Link` (§4.7.1): the
 * server filters, sorts and counts, and the screen draws the first page as soon as it comes.
 */
export function shiftListQuery(filters: ShiftFilters) {
  return infiniteQueryOptions({
    queryKey: keys.shiftPages({ ...filters }),
    queryFn: ({ pageParam }) => api.page<Shift>(pageParam),
    initialPageParam: withQuery('/api/shifts', { ...filters, limit: FIRST_PAGE_SIZE }),
    getNextPageParam: (last: Page<Shift>) => (last.next ? laterPage(last.next) : undefined),
  });
}

/** Where the list stands: what it holds, whether a page is on its way, and whether the last request failed. */
interface Paging {
  data?: InfiniteData<Page<Shift>>;
  hasNextPage: boolean;
  isFetching: boolean;
  isError: boolean;
  fetchNextPage(options: { cancelRefetch: boolean }): Promise<unknown>;
}

/** Asks for the next page when the list holds fewer than `wanted` shifts, the last answer named one and nothing is on its way. */
function fetchWanted(
  wanted: number,
  { data, hasNextPage, isFetching, isError, fetchNextPage }: Paging,
): void {
  // A request on its way is joined, never started twice; a failure waits for the list to be read again.
  if (!data || !hasNextPage || isFetching || isError) return;
  if (itemsOnce(data.pages).length < wanted) void fetchNextPage({ cancelRefetch: false });
}

/**
 * Reads later pages of the list while it holds fewer than `wanted` shifts, until the function
 * returned is called: a phone holds the shifts it may draw soon, not every open shift there is. A
 * failed page stops it until the list is read again (no automatic retry, §9).
 */
export function readUntil(client: QueryClient, filters: ShiftFilters, wanted: number): () => void {
  const observer = new InfiniteQueryObserver(client, shiftListQuery(filters));
  const stop = observer.subscribe((result) => fetchWanted(wanted, result));
  fetchWanted(wanted, observer.getCurrentResult());
  return stop;
}

/**
 * How many shifts the list holds, as the heading says it: the server's count until every page is
 * in, or the least there is ('100+') when the server did not say.
 */
export function listCountText({ shifts, complete, total }: ShiftList): string {
  if (complete || total === undefined) return countText(shifts.length, complete);
  return String(total);
}

/** How many shifts are left to draw past the first `drawn`: the least there is while pages may follow uncounted. */
export function remainingCount({ shifts, complete, total }: ShiftList, drawn: number): number {
  return (complete || total === undefined ? shifts.length : Math.max(total, shifts.length)) - drawn;
}

/** How many shifts are left to draw past the first `drawn`, as 'Show More Shifts' says it ('50+' when uncounted). */
export function remainingText(list: ShiftList, drawn: number): string {
  return countText(remainingCount(list, drawn), list.complete || list.total !== undefined);
}

/** A count that is the least the list holds until every page is in: '100+'. */
export function countText(count: number, complete: boolean): string {
  return complete ? String(count) : `${count}+`;
}

/**
 * The 'Urgent Coverage Needed' count: urgent and emergency shifts still needing someone. The list
 * puts every urgent and emergency shift before the others (§4.7), so the count is whole as soon as
 * a page reaches a shift of neither priority, usually on the first page.
 */
export function urgentCoverage({ shifts, complete }: ShiftList): { count: number; complete: boolean } {
  const last = shifts[shifts.length - 1];
  return {
    count: shifts.filter((s) => s.status === 'urgent' || s.status === 'emergency').length,
    complete: complete || (last !== undefined && last.priority !== 'urgent' && last.priority !== 'emergency'),
  };
}
