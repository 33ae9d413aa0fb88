import type { InfiniteData } from '@tanstack/react-query';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../api/client';
import { aShift } from '../admin/shift-fixture';
import { byQueueOrder } from './claim-decision';
import { pendingListOf, withoutClaim } from './pending-list';
import type { PendingShift } from './types';

const claim = (id: string, date: string, rank = 1): PendingShift => ({
  ...aShift({ id, date, status: 'pending', needsApproval: true, assignedUserId: `u-${id}` }),
  staffName: { firstName: 'Alex', lastName: 'Rivera', username: 'alex.rivera' },
  rank,
  slotClaims: rank,
  rankReasons: [],
});

const pagesOf = (...pages: Page<PendingShift>[]): InfiniteData<Page<PendingShift>> => ({
  pages,
  pageParams: pages.map((_, i) => `/api/shifts/pending?page=${i}`),
});

describe('the Pending Approvals list a page at a time', () => {
  it('joins the pages in the queue order, each claim once, and counts every claim awaiting approval', () => {
    const a = claim('a', '2026-03-02');
    const b = claim('b', '2026-03-01');
    const c = claim('c', '2026-03-03');
    const list = pendingListOf(
      pagesOf({ items: [a, b], next: '/next', total: 7 }, { items: [b, c], next: '/n2', total: 7 }),
    );
    expect(list.claims.map((s) => s.id)).toEqual(['b', 'a', 'c']);
    expect(list.total).toBe(7);
  });

  it('never counts fewer than the claims it holds, and counts them when the server gave no count', () => {
    const items = [claim('a', '2026-03-02'), claim('b', '2026-03-01')];
    expect(pendingListOf(pagesOf({ items, next: null, total: 1 })).total).toBe(2);
    expect(pendingListOf(pagesOf({ items, next: null })).total).toBe(2);
    expect(pendingListOf(pagesOf()).total).toBe(0);
  });

  it('takes the count of the latest page read', () => {
    const list = pendingListOf(
      pagesOf(
        { items: [claim('a', '2026-03-02')], next: '/n', total: 9 },
        { items: [], next: null, total: 4 },
      ),
    );
    expect(list.total).toBe(4);
  });

  it('drops a decided claim from every page and counts one fewer; an unknown claim changes nothing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 8 }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 0, max: 45 }),
        fc.nat(30),
        (pageIds, decided, extra) => {
          const seen = new Set(pageIds.flat());
          const total = seen.size + extra;
          const data = pagesOf(
            ...pageIds.map((ids) => ({
              items: ids.map((id) => claim(String(id), `2026-03-${String((id % 28) + 1).padStart(2, '0')}`)),
              next: null,
              total,
            })),
          );
          const after = withoutClaim(data, String(decided));
          if (!seen.has(decided)) {
            expect(after).toBe(data);
            return;
          }
          const list = pendingListOf(after!);
          expect(list.claims.map((s) => s.id)).not.toContain(String(decided));
          expect(list.claims).toHaveLength(seen.size - 1);
          expect(list.total).toBe(total - 1);
          expect([...list.claims].sort(byQueueOrder)).toEqual(list.claims);
        },
      ),
    );
  });
});
