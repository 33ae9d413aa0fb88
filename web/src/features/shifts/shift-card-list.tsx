import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Alert, Spinner } from '../../components/ui/feedback';
import { ShiftCard } from './shift-card';
import { countText, type ShiftList } from './shift-list';

/**
 * Cards drawn in one task: drawing fifty at once holds a phone's main thread for a few hundred
 * milliseconds, in which it cannot answer a tap; a handful at a time it never does for long.
 */
const CARDS_PER_TASK = 5;

/** How many of `wanted` cards to draw now: a few more in each task until all are drawn. */
function useCardsDrawn(wanted: number): number {
  const [drawn, setDrawn] = useState(Math.min(wanted, CARDS_PER_TASK));
  useEffect(() => {
    if (drawn >= wanted) return;
    const next = setTimeout(() => setDrawn(drawn + CARDS_PER_TASK), 0);
    return () => clearTimeout(next);
  }, [drawn, wanted]);
  return Math.min(drawn, wanted);
}

/**
 * The first `visible` cards of the list, then 'Show More Shifts (N remaining)': N is the least
 * left ('50+') while pages are still coming, and a spinner ends the list while every shift that
 * has come is shown. `failure` is why the rest of the list did not come (docs/product.md §2.7).
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
  const remaining = list.shifts.length - visible;
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
      {remaining > 0 ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={onShowMore}>
            Show More Shifts ({countText(remaining, list.complete)} remaining)
          </Button>
        </div>
      ) : (
        !list.complete && !failure && <Spinner label="Loading more shifts" />
      )}
    </>
  );
}
