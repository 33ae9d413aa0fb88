import { InfiniteQueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Page } from '../../api/client';
import { queryClient, refresh } from '../../api/query-client';
import type { Shift } from '../../api/types';
import { aShift } from '../admin/shift-fixture';
import { defaultFilters } from './shift-filters';
import {
  countText,
  laterPage,
  listCountText,
  readUntil,
  remainingText,
  type ShiftList,
  shiftListOf,
  shiftListQuery,
  urgentCoverage,
} from './shift-list';

const shifts = ['a', 'b', 'c', 'd', 'e'].map((id) => aShift({ id }));
const ids = (list: ShiftList | undefined) => list?.shifts.map((s) => s.id);
const pages = (...items: [Shift[], string | null][]) => ({
  pages: items.map(([items, next]): Page<Shift> => ({ items, next })),
  pageParams: [],
});

/**
 * GET /api/shifts over `list`, two shifts a page with the `Link` to the next, each request answered
 * only when the test says (`answer`), or failed (`fail`).
 */
function pagedServer(list: Shift[]) {
  const asked: string[] = [];
  const waiting: ((ok: boolean) => void)[] = [];
  vi.stubGlobal('fetch', async (path: string) => {
    asked.push(path);
    const ok = await new Promise<boolean>((resolve) => waiting.push(resolve));
    if (!ok) return new Response('{"message":"The server is busy"}', { status: 503 });
    const from = Number(new URL(path, 'http://app').searchParams.get('cursor') ?? 0);
    const next = from + 2 < list.length ? `</api/shifts?status=open&cursor=${from + 2}>; rel="next"` : null;
    return new Response(JSON.stringify(list.slice(from, from + 2)), {
      headers: {
        'content-type': 'application/json',
        'x-total-count': String(list.length),
        ...(next && { link: next }),
      },
    });
  });
  const settle = (ok: boolean) => {
    for (const resolve of waiting.splice(0)) resolve(ok);
  };
  return { asked, answer: () => settle(true), fail: () => settle(false) };
}

/** The Available Shifts list as the screen reads it, holding at least `wanted` shifts when it can. */
function openList(wanted: number) {
  const observer = new InfiniteQueryObserver(queryClient, {
    ...shiftListQuery(defaultFilters),
    select: shiftListOf,
  });
  const unsubscribe = observer.subscribe(() => {});
  let stop = readUntil(queryClient, defaultFilters, wanted);
  return {
    now: () => observer.getCurrentResult(),
    /** The screen drew more cards: it wants more shifts held. */
    want(more: number) {
      stop();
      stop = readUntil(queryClient, defaultFilters, more);
    },
    close() {
      stop();
      unsubscribe();
    },
  };
}

/** Lets the list's requests and notices run: whatever it would ask for next, it has asked for. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the Available Shifts list, a page at a time', () => {
  afterEach(() => {
    queryClient.clear();
    vi.unstubAllGlobals();
  });

  it('reads only the pages that hold the shifts wanted, counting the whole list from the first', async () => {
    const server = pagedServer(shifts);
    const list = openList(2);
    await vi.waitFor(() => expect(server.asked).toEqual(['/api/shifts?status=open&limit=100']));
    server.answer();
    await vi.waitFor(() =>
      expect(list.now().data).toEqual({ shifts: shifts.slice(0, 2), complete: false, total: 5 }),
    );
    await quiet();
    expect(server.asked).toHaveLength(1);
    expect(listCountText(list.now().data!)).toBe('5');
    expect(remainingText(list.now().data!, 2)).toBe('3');

    // More cards drawn: the pages holding them are read, and no more.
    list.want(3);
    await vi.waitFor(() => expect(server.asked).toHaveLength(2));
    server.answer();
    await vi.waitFor(() => expect(ids(list.now().data)).toEqual(['a', 'b', 'c', 'd']));
    await quiet();
    expect(server.asked).toHaveLength(2);

    list.want(10);
    await vi.waitFor(() => expect(server.asked).toHaveLength(3));
    server.answer();
    await vi.waitFor(() => expect(list.now().data).toEqual({ shifts, complete: true, total: 5 }));
    // A small first page to draw at once, then pages of a few draws each.
    expect(server.asked).toEqual([
      '/api/shifts?status=open&limit=100',
      '/api/shifts?status=open&cursor=2&limit=200',
      '/api/shifts?status=open&cursor=4&limit=200',
    ]);
    list.close();
  });

  it('reads the list again when shifts change, the pages it held and no more', async () => {
    const held = [...shifts];
    const server = pagedServer(held);
    const list = openList(3);
    await vi.waitFor(() => expect(server.asked).toHaveLength(1));
    server.answer();
    await vi.waitFor(() => expect(server.asked).toHaveLength(2));
    // An urgent shift is posted while the second page is on its way, and the change notice comes.
    held.unshift(aShift({ id: 'posted', status: 'urgent', priority: 'urgent' }));
    void refresh(['shifts']);
    await vi.waitFor(() => {
      server.answer();
      expect(list.now()).toMatchObject({ isFetching: false, data: { complete: false, total: 6 } });
    });
    expect(ids(list.now().data)).toEqual(['posted', 'a', 'b', 'c']);
    list.close();
  });

  it('stops where a page failed, with the error, until the list is asked for again', async () => {
    const server = pagedServer(shifts);
    const list = openList(10);
    await vi.waitFor(() => expect(server.asked).toHaveLength(1));
    server.answer();
    await vi.waitFor(() => expect(server.asked).toHaveLength(2));
    server.fail();
    await vi.waitFor(() => expect(list.now()).toMatchObject({ isError: true, isFetching: false }));
    expect(list.now().error?.message).toBe('The server is busy');
    expect(ids(list.now().data)).toEqual(['a', 'b']);
    const asked = server.asked.length;
    await quiet();
    expect(server.asked).toHaveLength(asked);
    void refresh(['shifts']);
    await vi.waitFor(() => {
      server.answer();
      expect(list.now().data).toEqual({ shifts, complete: true, total: 5 });
    });
    list.close();
  });
});

describe('the pages as one list', () => {
  it('keeps the list’s order and shows a shift that moved between two pages once', () => {
    const [a, b, c] = shifts as [Shift, Shift, Shift];
    expect(ids(shiftListOf(pages([[a, b], 'next'], [[b, c], null])))).toEqual(['a', 'b', 'c']);
  });

  it('is complete only once the last page names no next one', () => {
    expect(shiftListOf(pages([shifts, 'next'])).complete).toBe(false);
    expect(shiftListOf(pages([shifts, 'next'], [[], null])).complete).toBe(true);
    expect(shiftListOf(pages()).complete).toBe(false);
  });

  it('asks for every page after the first at the larger size, at the place the link names', () => {
    expect(laterPage('/api/shifts?status=open&limit=100&cursor=WzIsIjIwMjYiXQ')).toBe(
      '/api/shifts?status=open&limit=200&cursor=WzIsIjIwMjYiXQ',
    );
    expect(laterPage('/api/shifts?cursor=x')).toBe('/api/shifts?cursor=x&limit=200');
  });

  it('counts what it holds, as the least there is while pages are still coming', () => {
    expect(countText(500, false)).toBe('500+');
    expect(countText(9_731, true)).toBe('9731');
  });

  it('counts the whole list by the server’s count, or the least there is when it gave none', () => {
    const held = { shifts: shifts.slice(0, 2), complete: false };
    expect(listCountText({ ...held, total: 9_731 })).toBe('9731');
    expect(remainingText({ ...held, total: 9_731 }, 2)).toBe('9729');
    expect(listCountText(held)).toBe('2+');
    expect(remainingText(held, 1)).toBe('1+');
    // Once every page is in, the list counts itself.
    expect(listCountText({ shifts, complete: true, total: 4 })).toBe('5');
  });
});

describe('Urgent Coverage Needed', () => {
  const urgent = aShift({ id: 'u', status: 'urgent', priority: 'urgent' });
  const emergency = aShift({ id: 'e', status: 'emergency', priority: 'emergency' });
  const claimedEmergency = aShift({ id: 'p', status: 'pending', priority: 'emergency' });
  const open = aShift({ id: 'o' });

  it('counts the urgent and emergency shifts still needing cover', () => {
    expect(urgentCoverage({ shifts: [emergency, claimedEmergency, urgent, open], complete: true })).toEqual({
      count: 2,
      complete: true,
    });
    expect(urgentCoverage({ shifts: [], complete: true })).toEqual({ count: 0, complete: true });
  });

  it('is whole once the pages reach a shift of neither priority: the list puts those last', () => {
    expect(urgentCoverage({ shifts: [emergency, urgent, open], complete: false })).toEqual({
      count: 2,
      complete: true,
    });
    expect(urgentCoverage({ shifts: [emergency, claimedEmergency, urgent], complete: false })).toEqual({
      count: 2,
      complete: false,
    });
  });
});
