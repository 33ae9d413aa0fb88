import {
  type CandidateFacts,
  type Credential,
  candidateFacts,
  type HeldTime,
  nextDate,
  previousDate,
  rankCandidates,
  shiftInterval,
  weekStart,
} from '@shiftcover/domain';
import type { Sql, TransactionSql } from 'postgres';
import type { ShiftRow } from './shift-queries';

type Db = Sql | TransactionSql;
type TimeRow = Pick<
  ShiftRow,
  'id' | 'location' | 'date' | 'start_time' | 'end_time' | 'required_credentials'
>;
type ClaimRow = TimeRow & { assigned_user_id: string; claimed_at: Date | null };

/** Where a claim stands among the claims awaiting approval for its slot, and why. */
interface ClaimRank {
  rank: number;
  slotClaims: number;
  rankReasons: string[];
}

/** A shift's time as a person's schedule holds it, from its row. */
export function heldTimeOf(row: TimeRow): HeldTime {
  const { start, end } = shiftInterval(row.date, row.start_time, row.end_time);
  return {
    shiftId: row.id,
    start: start.toISOString(),
    end: end.toISOString(),
    label: { location: row.location, date: row.date, startTime: row.start_time, endTime: row.end_time },
    requiredCredentials: row.required_credentials,
  };
}

/** Shifts at the same place and time are one slot: several openings for the same work. */
const slotOf = (row: TimeRow) => JSON.stringify([row.location, row.date, row.start_time, row.end_time]);

const daysBefore = (date: string, days: number): string =>
  days === 0 ? date : daysBefore(previousDate(date), days - 1);
const daysAfter = (date: string, days: number): string =>
  days === 0 ? date : daysAfter(nextDate(date), days - 1);

/** `rows` by `key`, each as `as` makes it, in their order. */
function groupBy<R, T>(rows: readonly R[], key: (row: R) => string, as: (row: R) => T): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(as(row));
    else groups.set(key(row), [as(row)]);
  }
  return groups;
}

/**
 * The rank of each claim in `pending` (by shift id) among every claim awaiting approval for the
 * same slot, from the shifts and credentials read models: the claimant's hours in the shift's
 * week and rest either side come from the shifts they hold or have claimed, as their schedule
 * counts them (docs/product.md §2.12).
 */
export async function rankPending(db: Db, pending: readonly ShiftRow[]): Promise<Map<string, ClaimRank>> {
  if (pending.length === 0) return new Map();
  const slots = new Set(pending.map(slotOf));
  const dates = [...new Set(pending.map((row) => row.date))].sort();
  const claims = (
    await db<ClaimRow[]>`
      select id, location, date, start_time, end_time, required_credentials, assigned_user_id, claimed_at
      from rm_shifts where status = 'pending' and assigned_user_id is not null and date = any(${dates})`
  ).filter((claim) => slots.has(slotOf(claim)));
  const people = [...new Set(claims.map((claim) => claim.assigned_user_id))];
  // The shift's week, and beyond it the two days past which rest is simply long.
  const from = daysBefore(weekStart(dates[0]!), 3);
  const to = daysAfter(weekStart(dates.at(-1)!), 10);
  const [held, credentials] = await Promise.all([
    db<(TimeRow & { assigned_user_id: string })[]>`
      select id, location, date, start_time, end_time, required_credentials, assigned_user_id from rm_shifts
      where assigned_user_id = any(${people}) and status in ('pending', 'approved', 'completed')
        and date >= ${from} and date <= ${to}`,
    db<(Credential & { userId: string })[]>`
      select id as "credentialId", user_id as "userId", name, expires_on as "expiresOn"
      from rm_credentials where user_id = any(${people})`,
  ]);
  const heldBy = groupBy(held, (row) => row.assigned_user_id, heldTimeOf);
  const credentialsOf = groupBy(
    credentials,
    (c) => c.userId,
    (c) => c,
  );
  const factsOf = (claim: ClaimRow): CandidateFacts =>
    candidateFacts(
      heldTimeOf(claim),
      claim.assigned_user_id,
      heldBy.get(claim.assigned_user_id) ?? [],
      credentialsOf.get(claim.assigned_user_id) ?? [],
      claim.claimed_at?.toISOString() ?? null,
    );
  const ranks = new Map<string, ClaimRank>();
  for (const slot of slots) {
    const inSlot = claims.filter((claim) => slotOf(claim) === slot);
    // One person cannot hold two overlapping shifts, so a slot's claimants are distinct people.
    const shiftOf = new Map(inSlot.map((claim) => [claim.assigned_user_id, claim.id]));
    for (const ranked of rankCandidates(inSlot.map(factsOf))) {
      ranks.set(shiftOf.get(ranked.userId)!, {
        rank: ranked.rank,
        slotClaims: inSlot.length,
        rankReasons: ranked.reasons,
      });
    }
  }
  return ranks;
}
