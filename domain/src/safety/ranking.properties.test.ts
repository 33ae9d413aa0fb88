import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shiftInterval } from '../time/eastern';
import type { HeldTime } from './checks';
import { type CandidateFacts, candidateFacts, compareCandidates, rankCandidates } from './ranking';

const BASE = Date.parse('2026-03-02T12:00:00Z');
const facts = (userId: string) =>
  fc.record({
    userId: fc.constant(userId),
    weekMinutes: fc.integer({ min: 0, max: 60 * 60 }),
    restBeforeMinutes: fc.option(fc.integer({ min: 0, max: 5 * 24 * 60 }), { nil: null }),
    restAfterMinutes: fc.option(fc.integer({ min: 0, max: 5 * 24 * 60 }), { nil: null }),
    requiredCredentials: fc.constant(2),
    missingCredentials: fc.subarray(['CPR', 'Driver']),
    claimedAt: fc.option(
      fc.integer({ min: 0, max: 3 * 24 * 60 }).map((m) => new Date(BASE + m * 60_000).toISOString()),
      { nil: null },
    ),
  });
/** Up to six people, each listed once. */
const people = fc
  .uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 })
  .chain((ids) => fc.tuple(...ids.map((id) => facts(`user-${id}`))));
const order = (ranked: { userId: string }[]) => ranked.map((r) => r.userId);

describe('the approval queue ranking', () => {
  it('is a total order: however the people are listed, the ranks come out the same and 1 to n', () => {
    fc.assert(
      fc.property(people, fc.infiniteStream(fc.nat()), (listed, draws) => {
        const shuffled = [...listed].sort(() => (draws.next().value % 3) - 1);
        const ranked = rankCandidates(listed);
        expect(order(rankCandidates(shuffled))).toEqual(order(ranked));
        expect(ranked.map((r) => r.rank)).toEqual(listed.map((_, i) => i + 1));
        for (const [a, b] of ranked.slice(1).map((r, i) => [ranked[i]!, r] as const)) {
          expect(compareCandidates(a, b)).toBeLessThan(0);
          expect(compareCandidates(b, a)).toBeGreaterThan(0);
        }
        for (const one of listed) expect(compareCandidates(one, one)).toBe(0);
      }),
    );
  });

  it('never ranks fewer hours that week below more when all else is equal', () => {
    fc.assert(
      fc.property(facts('a'), fc.integer({ min: 1, max: 600 }), (a, more) => {
        const b: CandidateFacts = { ...a, userId: 'b', weekMinutes: a.weekMinutes + more };
        expect(order(rankCandidates([b, a]))).toEqual(['a', 'b']);
      }),
    );
  });

  it('ranks the earlier claim first when all else is equal, and a claim before none', () => {
    fc.assert(
      fc.property(facts('z'), fc.integer({ min: 1, max: 600 }), (z, later) => {
        const at = z.claimedAt ?? new Date(BASE).toISOString();
        const first: CandidateFacts = { ...z, claimedAt: at };
        const second: CandidateFacts = {
          ...z,
          userId: 'a',
          claimedAt: new Date(Date.parse(at) + later * 60_000).toISOString(),
        };
        expect(order(rankCandidates([second, first]))).toEqual(['z', 'a']);
        expect(order(rankCandidates([{ ...second, claimedAt: null }, first]))).toEqual(['z', 'a']);
      }),
    );
  });

  it('puts whoever holds every required credential above anyone lacking one', () => {
    fc.assert(
      fc.property(people, (listed) => {
        const ranked = rankCandidates(listed);
        const firstLacking = ranked.findIndex((r) => r.missingCredentials.length > 0);
        if (firstLacking >= 0)
          expect(ranked.slice(firstLacking).every((r) => r.missingCredentials.length > 0)).toBe(true);
      }),
    );
  });
});

const held = (shiftId: string, date: string, startTime: string, endTime: string, required: string[] = []) => {
  const { start, end } = shiftInterval(date, startTime, endTime);
  return {
    shiftId,
    start: start.toISOString(),
    end: end.toISOString(),
    label: { location: 'Maple House', date, startTime, endTime },
    requiredCredentials: required,
  } satisfies HeldTime;
};

describe('the facts and reasons of one person', () => {
  it('counts the real hours of the week, the rests either side and the credentials held', () => {
    // The week of Sun Mar 8, 2026 loses an hour at 02:00 that Sunday.
    const wanted = held('w', '2026-03-10', '07:00', '15:00', ['CPR', 'Driver']);
    const schedule = [
      held('dst', '2026-03-07', '22:00', '06:00'), // Saturday: the week before
      held('sun', '2026-03-08', '00:00', '08:00'), // 7 h of real time
      held('mon', '2026-03-09', '15:00', '23:00'),
      held('wed', '2026-03-11', '05:00', '13:00'),
      wanted,
    ];
    const credentials = [
      { credentialId: 'c1', name: 'CPR', expiresOn: null },
      { credentialId: 'c2', name: 'Driver', expiresOn: '2026-03-09' },
    ];
    const f = candidateFacts(wanted, 'u', schedule, credentials, '2026-03-01T10:00:00.000Z');
    expect(f).toMatchObject({
      weekMinutes: (7 + 8 + 8) * 60,
      restBeforeMinutes: 8 * 60,
      restAfterMinutes: 14 * 60,
      missingCredentials: ['Driver'],
    });
    const other = { ...f, userId: 'v', claimedAt: '2026-03-01T12:00:00.000Z' };
    expect(rankCandidates([other, f]).find((r) => r.userId === 'u')?.reasons).toEqual([
      'Lacks Driver',
      '23 h already that week',
      '8 h rest before, 14 h after',
      'Claimed 2 h before the other',
    ]);
  });

  it('reads a far or missing shift either side as a long rest, and says when the claim is alone', () => {
    const wanted = held('w', '2026-06-10', '07:00', '15:00');
    const lastWeek = held('mon', '2026-06-01', '07:00', '15:00');
    const nextMorning = held('thu', '2026-06-11', '07:00', '15:00');
    const [rested] = rankCandidates([
      candidateFacts(wanted, 'u', [lastWeek], [], '2026-06-01T10:00:00.000Z'),
    ]);
    expect(rested?.reasons).toEqual([
      'No credential required',
      'No other hours that week',
      'Over 48 h rest before and after',
      'The only claim for this slot',
    ]);
    const [unclaimed] = rankCandidates([candidateFacts(wanted, 'u', [nextMorning], [], null)]);
    expect(unclaimed?.reasons).toEqual([
      'No credential required',
      '8 h already that week',
      'Over 48 h rest before, 16 h after',
    ]);
  });
});
