import type { InfiniteData } from '@tanstack/react-query';
import { itemsOnce, type Page } from '../../api/client';
import { byQueueOrder } from './claim-decision';
import type { PendingShift } from './types';

/** How many claims Pending Approvals asks the server for at a time (docs/product.md §2.12). */
export const PENDING_PAGE_SIZE = 100;

/** The claims loaded so far, in the panel's order, and how many await approval in all. */
export interface PendingList {
  claims: PendingShift[];
  total: number;
}

/**
 * The loaded pages as one list in the queue's order, each claim once (`itemsOnce`). The total is
 * the server's count as of the latest page read, never less than the claims at hand.
 */
export function pendingListOf({ pages }: InfiniteData<Page<PendingShift>>): PendingList {
  const claims = itemsOnce(pages).sort(byQueueOrder);
  const counted = pages.findLast((page) => page.total !== undefined)?.total;
  return { claims, total: Math.max(counted ?? 0, claims.length) };
}

/** The pages as they read once the claim on `shiftId` is decided: without it, and counted one fewer. */
export function withoutClaim(
  data: InfiniteData<Page<PendingShift>> | undefined,
  shiftId: string,
): InfiniteData<Page<PendingShift>> | undefined {
  if (!data?.pages.some((page) => page.items.some((claim) => claim.id === shiftId))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.filter((claim) => claim.id !== shiftId),
      ...(page.total === undefined ? {} : { total: Math.max(0, page.total - 1) }),
    })),
  };
}
