import { startTransition, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Alert, Spinner } from '../../components/ui/feedback';
import { ShiftCard } from './shift-card';
import { remainingCount, remainingText, type ShiftList } from './shift-list';

/**
 * Cards drawn with the list, and then in each task after: drawing fifty at once holds a phone's
 * main thread for a few hundred milliseconds, in which it cannot answer a tap; a handful at a time
 * it never does for long. The first two fill a phone's screen below the heading, and what the
 * later ones push down is below it.
 */
const CARDS_AT_FIRST = 2;
const CARDS_PER_TASK = 5;

/** How many of `wanted` cards to draw now: a few more in each task until all are drawn. */
function useCardsDrawn(wanted: number): number {
  const [drawn, setDrawn] = useState(Math.min(wanted, CARDS_AT_FIRST));
  useEffect(() => {
    if (drawn >= wanted) return;
    // A transition: React renders the next cards in slices it can leave for a tap or a paint.
    const next = setTimeout(() => startTransition(() => setDrawn(drawn + CARDS_PER_TASK)), 0);
    return () => clearTimeout(next);
  }, [drawn, wanted]);
  return Math.min(drawn, wanted);
}

/**
 * The first `visible` cards of the list, then 'Show More Shifts (N remaining)', N from the
 * server's count of the whole list (or the least left, '50+', when it gave none). A spinner ends
 * the list while the cards it is to show are still coming. `failure` is why the rest of the list
 * did not come (docs/product.md §2.7).
 */
export function ShiftCardList({
  list,
  visible,
  failure,
  onShowMore,
}: {
  list: ShiftList;
  visible: number;
  failure?: string;
  onShowMore(): void;
}) {
  const drawn = useCardsDrawn(Math.min(visible, list.shifts.length));
  const coming = list.shifts.length < visible && !list.complete;
  return (
    <>
      {failure && <Alert className="border-red-200 bg-red-50 text-red-900">{failure}</Alert>}
      <ul className="grid gap-4 md:grid-cols-2">
        {list.shifts.slice(0, drawn).map((shift) => (
          <li key={shift.id} className="grid">
            <ShiftCard shift={shift} />
          </li>
        ))}
      </ul>
      {coming
        ? !failure && <Spinner label="Loading more shifts" />
        : remainingCount(list, visible) > 0 && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={onShowMore}>
                Show More Shifts ({remainingText(list, visible)} remaining)
              </Button>
            </div>
          )}
    </>
  );
}
