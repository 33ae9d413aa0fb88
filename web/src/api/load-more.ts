import { useEffect, useState } from 'react';

/** What a paged list's query says of itself, as an infinite query of TanStack Query reports it. */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  isError: boolean;
  fetchNextPage(options: { cancelRefetch: boolean }): Promise<unknown>;
}

/**
 * Load More for a paged list that live changes refresh. A refresh may start while the next page is
 * on its way and cancel it, to read again only the pages held; so a press is kept as how much the
 * list should hold (`held` counts what the list counts: pages, claims), and the next page is asked
 * for whenever the list holds less and nothing is on its way. No press is lost and no refresh is
 * dropped. A new `scope` (the filters, a location) starts again from what its first page holds.
 */
export function useLoadMore(list: PagedQuery, held: number, scope?: unknown) {
  const [asked, setAsked] = useState({ scope, wanted: 0 });
  const wanted = Object.is(asked.scope, scope) ? asked.wanted : 0;
  const short = held < wanted && list.hasNextPage && !list.isError;
  const { isFetching, isError, fetchNextPage } = list;

  useEffect(() => {
    if (short && !isFetching) void fetchNextPage({ cancelRefetch: false });
  }, [short, isFetching, fetchNextPage]);

  return {
    /** Asks for `more` than the list holds now; after a failed page the press reads it again. */
    loadMore(more: number) {
      setAsked({ scope, wanted: held + more });
      if (isError) void fetchNextPage({ cancelRefetch: false });
    },
    /** Whether a page the list was asked for is still to come. */
    loading: short || list.isFetchingNextPage,
  };
}
