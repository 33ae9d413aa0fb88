/** What a held time says that its search needs: its shift, and when it starts and ends. */
interface HeldTime {
  shiftId: string;
  start: string;
  end: string;
}

/**
 * A person's held times in the order they start, so that a new shift is compared with the few
 * near it rather than with every shift the person ever held: a schedule keeps its whole history,
 * a year of full-time work is some 250 shifts, and each claim would otherwise look at all of them.
 *
 * An index belongs to one list of held times, which is never changed in place (a schedule's state
 * is replaced, not edited), so it cannot go stale. The schedule's fold derives the next list's
 * index from the one before (`carryHeldIndex`), a copy of one array, instead of sorting again; a
 * list without one (a record read from elsewhere) is searched from end to end, as before.
 */
interface HeldIndex {
  /** Ascending by start; among equal starts, in the order they were added. */
  entries: readonly HeldEntry[];
  /** The longest time held (ms): how far before a window a held time may start and still reach it. */
  longest: number;
}

/** A held time with its instants (ms). */
interface HeldEntry {
  start: number;
  end: number;
  held: HeldTime;
}

const indexes = new WeakMap<readonly HeldTime[], HeldIndex>();

const entryOf = (held: HeldTime): HeldEntry => ({
  start: Date.parse(held.start),
  end: Date.parse(held.end),
  held,
});
const readable = (entry: HeldEntry) => !Number.isNaN(entry.start) && !Number.isNaN(entry.end);

/** The first position whose start is at or after `at` (binary search). */
function firstFrom(entries: readonly HeldEntry[], at: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]!.start < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** An index of `list`; none when a time in it cannot be read, and then it is searched in full. */
function indexOf(list: readonly HeldTime[]): HeldIndex | undefined {
  const entries = list.map(entryOf);
  if (!entries.every(readable)) return undefined;
  entries.sort((a, b) => a.start - b.start);
  return { entries, longest: entries.reduce((longest, e) => Math.max(longest, e.end - e.start), 0) };
}

/**
 * Gives `list` an index made afresh (none when a time in it cannot be read): for a list a fold made
 * at once from many events (the schedule's `evolveAll`), sorted once rather than carried step by step.
 */
export function indexHeldTimes(list: readonly HeldTime[]): void {
  const made = indexOf(list);
  if (made) indexes.set(list, made);
}

/**
 * Gives `after`, the list a fold made from `before` by taking out the held time of
 * `removedShiftId` (when it held one) and adding `added` (when given), the index of `before`,
 * updated. A `before` with no index gets one made from `after`.
 */
export function carryHeldIndex(
  before: readonly HeldTime[],
  after: readonly HeldTime[],
  removedShiftId: string | undefined,
  added?: HeldTime,
): void {
  // A release of a shift the person did not hold leaves the same list, and its index.
  if (before === after) return;
  const known = indexes.get(before);
  const entry = added && entryOf(added);
  if (!known || (entry && !readable(entry))) {
    const made = indexOf(after);
    if (made) indexes.set(after, made);
    return;
  }
  const entries = known.entries.slice();
  const gone =
    removedShiftId === undefined ? -1 : entries.findIndex((e) => e.held.shiftId === removedShiftId);
  if (gone !== -1) entries.splice(gone, 1);
  // What was taken out may have been the longest: an overestimate only widens searches.
  let longest = known.longest;
  if (entry) {
    // After those starting at the same moment, as a sort of the whole list would place it.
    entries.splice(firstFrom(entries, entry.start + 1), 0, entry);
    longest = Math.max(longest, entry.end - entry.start);
  }
  indexes.set(after, { entries, longest });
}

/**
 * The held times of `list` that meet the window from `from` to `to` (instants in ms, both
 * included): each that starts no later than `to` and ends no earlier than `from`. In the order they
 * start when the list has an index, else in the list's order.
 */
export function heldWithin<T extends HeldTime>(list: readonly T[], from: number, to: number): T[] {
  const index = indexes.get(list);
  if (!index) {
    return list.filter((held) => {
      const { start, end } = entryOf(held);
      return start <= to && end >= from;
    });
  }
  const { entries } = index;
  const found: T[] = [];
  for (let i = firstFrom(entries, from - index.longest); i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.start > to) break;
    // The index holds the list's own held times.
    if (entry.end >= from) found.push(entry.held as T);
  }
  return found;
}
