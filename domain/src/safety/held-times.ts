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
  /** The held times by shift, for the newest list of its line alone (see `Line`). */
  line?: Line;
}

/**
 * The held times by shift of the newest list in a line of lists, each made by the fold from the one
 * before it: one map for the whole line, changed in place as the line grows, so that a step finds
 * the shift it changes without going through the list. Only the newest list (`head`) may read it;
 * a list made from an older one (a second fold from the same state) has none, and neither have the
 * lists made from it: each finds a shift by going through its list, until a load indexes the
 * stream afresh. (A new line there would cost a map of every held time, some fifteen steps.)
 */
interface Line {
  byShift: Map<string, HeldEntry>;
  head: readonly HeldTime[];
}

/** A held time with its instants (ms). */
interface HeldEntry {
  start: number;
  end: number;
  held: HeldTime;
}

/**
 * Where a list keeps its index: a property of the list itself, not enumerable, so that JSON and
 * comparisons of states never see it. (A `WeakMap` from lists to their indexes kept each index,
 * a copy of the list, alive through V8's young-generation collections, and so moved it into the
 * old generation: about 50 µs a step at 5,000 held times, most of the step.)
 */
const INDEX = Symbol('held times by start');
type Indexed = { [INDEX]?: HeldIndex };

const indexFor = (list: readonly HeldTime[]): HeldIndex | undefined => (list as Indexed)[INDEX];

function setIndex(list: readonly HeldTime[], index: HeldIndex): void {
  // A list that cannot take it (a frozen one) goes without, and is searched in full.
  if (Object.isExtensible(list)) Object.defineProperty(list, INDEX, { value: index, configurable: true });
}

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

/** A line begun at `list`; none when a shift is held twice in it (then it is searched in full). */
function lineOf(list: readonly HeldTime[], entries: readonly HeldEntry[]): Line | undefined {
  const byShift = new Map(entries.map((e) => [e.held.shiftId, e]));
  return byShift.size === entries.length ? { byShift, head: list } : undefined;
}

/**
 * An index of `list`; none when a time in it cannot be read or a shift is held twice (no fold makes
 * such a list), and then it is searched in full.
 */
function indexOf(list: readonly HeldTime[]): HeldIndex | undefined {
  const entries = list.map(entryOf);
  if (!entries.every(readable)) return undefined;
  entries.sort((a, b) => a.start - b.start);
  const line = lineOf(list, entries);
  if (!line) return undefined;
  return {
    entries,
    longest: entries.reduce((longest, e) => Math.max(longest, e.end - e.start), 0),
    line,
  };
}

/**
 * Gives `list` an index made afresh (none when a time in it cannot be read): for a list a fold made
 * at once from many events (the schedule's `evolveAll`), sorted once rather than carried step by step.
 */
export function indexHeldTimes(list: readonly HeldTime[]): void {
  const made = indexOf(list);
  if (made) setIndex(list, made);
}

/**
 * The held time of `shiftId` in `list`, if it holds one: found by shift when `list` is the newest of
 * its line, else by going through the list.
 */
export function heldShift<T extends HeldTime>(list: readonly T[], shiftId: string): T | undefined {
  const line = indexFor(list)?.line;
  if (line?.head === list) return line.byShift.get(shiftId)?.held as T | undefined;
  return list.find((held) => held.shiftId === shiftId);
}

/** The position of `held`'s entry among `entries`, found by its start; -1 if it is not there. */
function positionOf(entries: readonly HeldEntry[], held: HeldTime): number {
  for (let i = firstFrom(entries, Date.parse(held.start)); i < entries.length; i++) {
    if (entries[i]!.held === held) return i;
  }
  return -1;
}

/**
 * Gives `after`, the list a fold made from `before` by taking out `removed` (when it held one) and
 * adding `added` (when given), the index of `before`, updated. A `before` with no index gets one
 * made from `after`.
 */
export function carryHeldIndex(
  before: readonly HeldTime[],
  after: readonly HeldTime[],
  removed: HeldTime | undefined,
  added?: HeldTime,
): void {
  // A release of a shift the person did not hold leaves the same list, and its index.
  if (before === after) return;
  const known = indexFor(before);
  const entry = added && entryOf(added);
  const gone = known && removed ? positionOf(known.entries, removed) : -1;
  if (!known || (entry && !readable(entry)) || (removed && gone === -1)) {
    indexHeldTimes(after);
    return;
  }
  const entries = known.entries.slice();
  if (gone !== -1) entries.splice(gone, 1);
  // What was taken out may have been the longest: an overestimate only widens searches.
  let longest = known.longest;
  if (entry) {
    // After those starting at the same moment, as a sort of the whole list would place it.
    entries.splice(firstFrom(entries, entry.start + 1), 0, entry);
    longest = Math.max(longest, entry.end - entry.start);
  }
  const line = known.line?.head === before ? known.line : undefined;
  if (line) {
    // `before` is the newest of its line: the line goes on to `after`, and `before` leaves it.
    if (removed) line.byShift.delete(removed.shiftId);
    if (entry) line.byShift.set(entry.held.shiftId, entry);
    line.head = after;
  }
  setIndex(after, { entries, longest, ...(line && { line }) });
}

/**
 * The held times of `list` that meet the window from `from` to `to` (instants in ms, both
 * included): each that starts no later than `to` and ends no earlier than `from`. In the order they
 * start when the list has an index, else in the list's order.
 */
export function heldWithin<T extends HeldTime>(list: readonly T[], from: number, to: number): T[] {
  const index = indexFor(list);
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
