import { type HeldTime, type RuleBreach, type RuleCode, ruleBreaches, workingTimeRuleCodes } from './checks';
import type { VersionedRules } from './working-time';

/** The period a what-if replays when none is given: the 30 days up to now. */
export const WHAT_IF_DAYS = 30;

export function defaultWhatIfFrom(until: Date): Date {
  return new Date(until.getTime() - WHAT_IF_DAYS * 86_400_000);
}

/** One breach the proposed rules would have found: whose, on which shift. */
export interface WhatIfViolation extends RuleBreach {
  userId: string;
  shiftId: string;
  shift: HeldTime['label'];
}

export interface WhatIfReport {
  from: string;
  until: string;
  violations: WhatIfViolation[];
  byRule: Record<string, number>;
  byPerson: Record<string, number>;
}

/**
 * The working-time rules of `rules` applied to the shifts people held in a past period: each held
 * shift that starts in [from, until) is checked against everything else the person held, as it
 * would have been when it was taken. Credentials and time off are not replayed: the what-if is
 * about the organisation's working-time rules.
 */
export function whatIf(
  held: ReadonlyMap<string, readonly HeldTime[]>,
  rules: VersionedRules,
  from: Date,
  until: Date,
): WhatIfReport {
  const violations: WhatIfViolation[] = [];
  for (const [userId, times] of held) {
    const inPeriod = times.filter((t) => new Date(t.start) >= from && new Date(t.start) < until);
    for (const shift of [...inPeriod].sort((a, b) => a.start.localeCompare(b.start))) {
      // Breaches between two shifts are found from the later one, so each is reported once.
      const earlier = times.filter((t) => t.start < shift.start);
      const record = { reservations: earlier, credentials: [], timeOff: [] };
      const found = ruleBreaches({ ...shift, requiredCredentials: [] }, record, rules, false).filter((b) =>
        workingTimeRuleCodes.includes(b.code),
      );
      violations.push(...found.map((b) => ({ ...b, userId, shiftId: shift.shiftId, shift: shift.label })));
    }
  }
  return { from: from.toISOString(), until: until.toISOString(), violations, ...counts(violations) };
}

function counts(violations: readonly WhatIfViolation[]) {
  const byRule: Partial<Record<RuleCode, number>> = {};
  const byPerson: Record<string, number> = {};
  for (const v of violations) {
    byRule[v.code] = (byRule[v.code] ?? 0) + 1;
    byPerson[v.userId] = (byPerson[v.userId] ?? 0) + 1;
  }
  return { byRule, byPerson };
}
