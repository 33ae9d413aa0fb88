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
}

/** The list's shifts in its order, each once (`itemsOnce`), and whether every page is in. */
export function shiftListOf({ pages }: InfiniteData<Page<Shift>>): ShiftList {
  return { shifts: itemsOnce(pages), complete: pages.length > 0 && pages[pages.length - 1]!.next === null };
}

/** The first page: twice the cards the screen draws at first, small enough to come at once. */
export const FIRST_PAGE_SIZE = 100;
/** Each later page: the server's largest default, so a long list takes few requests. */
export const LATER_PAGE_SIZE = 500;

/** The answer's next link asking for a later page's size: a cursor names a place, not a count. */
export function laterPage(next: string): string {
  const url = new URL(next, 'http://app');
  url.searchParams.set('limit', String(LATER_PAGE_SIZE));
  return `${url.pathname}${url.search}`;
}

/**
 * GET /api/shifts with the screen's filters, a page at a time following the `Link` (§4.7.1): the
 * server filters and sorts, and the screen draws the first page while the rest come.
 */
export function shiftListQuery(filters: ShiftFilters) {
  return infiniteQueryOptions({
    queryKey: keys.shiftPages({ ...filters }),
    queryFn: ({ pageParam }) => api.page<Shift>(pageParam),
    initialPageParam: withQuery('/api/shifts', { ...filters, limit: FIRST_PAGE_SIZE }),
    getNextPageParam: (last: Page<Shift>) => (last.next ? laterPage(last.next) : undefined),
  });
}

/** Where the list stands: whether a page is on its way, and whether the last request failed. */
interface Paging {
  hasNextPage: boolean;
  isFetching: boolean;
  isError: boolean;
  fetchNextPage(options: { cancelRefetch: boolean }): Promise<unknown>;
}

/** Asks for the next page when the last answer named one and nothing else is on its way. */
function fetchRest({ hasNextPage, isFetching, isError, fetchNextPage }: Paging): void {
  // A request on its way is joined, never started twice; a failure waits for the list to be read again.
  if (hasNextPage && !isFetching && !isError) void fetchNextPage({ cancelRefetch: false });
}

/**
 * Reads the rest of the list behind its first page, each page asked for as soon as the one before
 * is in (not once the screen has drawn it), until the function returned is called. A failed page
 * stops it until the list is read again (no automatic retry, §9).
 */
export function followPages(client: QueryClient, filters: ShiftFilters): () => void {
  return new InfiniteQueryObserver(client, shiftListQuery(filters)).subscribe(fetchRest);
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
