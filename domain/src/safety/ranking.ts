import { quarterHours } from '../time/duration';
import { type Credential, coversUntil, type HeldTime, weekStart } from './checks';

/** What the approval queue weighs about one person for one shift (docs/product.md §2.12). */
export interface CandidateFacts {
  userId: string;
  /** Real minutes of the other shifts they hold in the shift's Sunday-to-Saturday week. */
  weekMinutes: number;
  /** Real minutes from the end of their last shift before this one to its start; null when none. */
  restBeforeMinutes: number | null;
  /** Real minutes from this shift's end to the start of their next shift; null when none. */
  restAfterMinutes: number | null;
  /** How many credentials the shift requires. */
  requiredCredentials: number;
  /** The required credentials they lack, or that lapse before the shift ends. */
  missingCredentials: string[];
  /** When they claimed the shift (ISO); null for someone who has not. */
  claimedAt: string | null;
}

export interface RankedCandidate extends CandidateFacts {
  /** 1 for the best placed. */
  rank: number;
  /** Short sentences, in the order the ranking weighs them. */
  reasons: string[];
}

const MINUTE_MS = 60_000;
const minutesBetween = (from: string, to: string) =>
  Math.round((new Date(to).getTime() - new Date(from).getTime()) / MINUTE_MS);

/**
 * The facts about `userId` taking `wanted`, from the time they hold (`held`, which may include
 * `wanted` itself: it is left out) and the credentials they have. Shifts overlapping `wanted`
 * give no rest either side; they are the schedule's own conflict.
 */
export function candidateFacts(
  wanted: HeldTime,
  userId: string,
  held: readonly HeldTime[],
  credentials: readonly Credential[],
  claimedAt: string | null,
): CandidateFacts {
  const others = held.filter((t) => t.shiftId !== wanted.shiftId);
  const week = weekStart(wanted.label.date);
  const weekMinutes = others
    .filter((t) => weekStart(t.label.date) === week)
    .reduce((sum, t) => sum + minutesBetween(t.start, t.end), 0);
  const before = others.filter((t) => t.end <= wanted.start).map((t) => minutesBetween(t.end, wanted.start));
  const after = others.filter((t) => t.start >= wanted.end).map((t) => minutesBetween(wanted.end, t.start));
  const required = wanted.requiredCredentials ?? [];
  const end = new Date(wanted.end);
  return {
    userId,
    weekMinutes,
    restBeforeMinutes: before.length === 0 ? null : Math.min(...before),
    restAfterMinutes: after.length === 0 ? null : Math.min(...after),
    requiredCredentials: required.length,
    missingCredentials: required.filter(
      (name) => !credentials.some((c) => c.name === name && coversUntil(c, end)),
    ),
    claimedAt,
  };
}

// Beyond two days the exact figure says nothing more about being rested.
const LONG_REST_MINUTES = 48 * 60;
/** The shorter of the two rests, two days at most: no shift on either side is a long rest. */
const shortestRest = (f: CandidateFacts) =>
  Math.min(
    f.restBeforeMinutes ?? LONG_REST_MINUTES,
    f.restAfterMinutes ?? LONG_REST_MINUTES,
    LONG_REST_MINUTES,
  );
const claimTime = (f: CandidateFacts) =>
  f.claimedAt === null ? Number.POSITIVE_INFINITY : new Date(f.claimedAt).getTime();
const ascending = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The queue's order: whoever holds every required credential, then fewer hours already that
 * week, then the longer of the shortest rests (up to two days), then the earlier claim (a claim
 * before none), then the user id, so that no two people tie and the order does not depend on how
 * they were listed.
 */
export function compareCandidates(a: CandidateFacts, b: CandidateFacts): number {
  return (
    ascending(a.missingCredentials.length, b.missingCredentials.length) ||
    ascending(a.weekMinutes, b.weekMinutes) ||
    ascending(shortestRest(b), shortestRest(a)) ||
    ascending(claimTime(a), claimTime(b)) ||
    (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)
  );
}

const hours = (minutes: number) => `${quarterHours(minutes)} h`;
// No shift on a side reads as a long rest too: the read models are searched only so far.
const isLong = (minutes: number | null) => minutes === null || minutes > LONG_REST_MINUTES;

function gap(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  if (minutes < LONG_REST_MINUTES) return hours(minutes);
  return `${Math.round(minutes / (24 * 60))} days`;
}

function restReason({ restBeforeMinutes: before, restAfterMinutes: after }: CandidateFacts): string {
  if (isLong(before) && isLong(after)) return 'Over 48 h rest before and after';
  const first = isLong(before) ? 'Over 48 h rest before' : `${hours(before!)} rest before`;
  const second = isLong(after) ? 'over 48 h after' : `${hours(after!)} after`;
  return `${first}, ${second}`;
}

function credentialReason(f: CandidateFacts): string {
  if (f.requiredCredentials === 0) return 'No credential required';
  if (f.missingCredentials.length === 0) return 'Holds every required credential';
  return `Lacks ${f.missingCredentials.join(', ')}`;
}

/** How this claim's time compares with the other claims for the same slot; none for no claim. */
function claimReason(f: CandidateFacts, all: readonly CandidateFacts[]): string[] {
  if (f.claimedAt === null) return [];
  const others = all.filter((o) => o.userId !== f.userId && o.claimedAt !== null).map(claimTime);
  if (others.length === 0) return ['The only claim for this slot'];
  const mine = claimTime(f);
  const first = Math.min(...others);
  const minutes = Math.round(Math.abs(first - mine) / MINUTE_MS);
  if (minutes === 0) return ['Claimed within a minute of another claim'];
  if (mine < first) return [`Claimed ${gap(minutes)} before the ${others.length === 1 ? 'other' : 'others'}`];
  return [`Claimed ${gap(minutes)} after the first claim`];
}

/** `candidates` in the queue's order, each with its rank and the reasons for it. */
export function rankCandidates(candidates: readonly CandidateFacts[]): RankedCandidate[] {
  return [...candidates].sort(compareCandidates).map((f, i) => ({
    ...f,
    rank: i + 1,
    reasons: [
      credentialReason(f),
      f.weekMinutes === 0 ? 'No other hours that week' : `${hours(f.weekMinutes)} already that week`,
      restReason(f),
      ...claimReason(f, candidates),
    ],
  }));
}
