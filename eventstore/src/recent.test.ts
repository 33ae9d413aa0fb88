import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Recent } from './recent';

type Step = { op: 'set'; key: number; value: number } | { op: 'get' | 'delete'; key: number };

/** Takes the steps, each value found being the latest set (forgetting is allowed), and `check` after each. */
function followLatest(recent: Recent<number, number>, steps: readonly Step[], check: () => void) {
  const latest = new Map<number, number>();
  for (const s of steps) {
    if (s.op === 'set') {
      recent.set(s.key, s.value);
      latest.set(s.key, s.value);
      expect(recent.get(s.key)).toBe(s.value);
    } else if (s.op === 'delete') {
      recent.delete(s.key);
      latest.delete(s.key);
      expect(recent.get(s.key)).toBeUndefined();
    } else {
      const found = recent.get(s.key);
      if (found !== undefined) expect(found).toBe(latest.get(s.key));
    }
    check();
  }
}

describe('Recent', () => {
  it('holds at most its limit, gives only the latest value of a key, and keeps what was just used', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key: fc.nat(60), value: fc.nat() }),
      fc.record({ op: fc.constantFrom('get' as const, 'delete' as const), key: fc.nat(60) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(step, { maxLength: 300 }), (limit, steps) => {
        const recent = new Recent<number, number>(limit);
        followLatest(recent, steps, () => expect(recent.size).toBeLessThanOrEqual(Math.max(limit, 2)));
      }),
    );
  });

  it('keeps a key used again before half its limit of other keys were used, however many pass through', () => {
    const recent = new Recent<string, number>(100);
    for (let hot = 0; hot < 10; hot++) recent.set(`hot-${hot}`, hot);
    // Between two uses of a hot key: 30 new keys and the 9 other hot ones, fewer than 50.
    for (let i = 1; i <= 10_000; i++) {
      recent.set(`cold-${i}`, i);
      if (i % 30 === 0) for (let hot = 0; hot < 10; hot++) expect(recent.get(`hot-${hot}`)).toBe(hot);
    }
    expect(recent.get('cold-1')).toBeUndefined();
  });

  it('weighed, holds under its weight limit and one heaviest value more, and gives only the latest value', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key: fc.nat(60), value: fc.nat(500) }),
      fc.record({ op: fc.constantFrom('get' as const, 'delete' as const), key: fc.nat(60) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000 }),
        fc.array(step, { maxLength: 300 }),
        (weightLimit, steps) => {
          // The value is its own weight: the heaviest any can be is 500.
          const recent = new Recent<number, number>(1_000, { limit: weightLimit, of: (value) => value });
          followLatest(recent, steps, () => {
            expect(recent.weight).toBeGreaterThanOrEqual(0);
            expect(recent.weight).toBeLessThan(weightLimit + 500);
          });
        },
      ),
    );
  });

  it('counts the weight of what it holds, as values are set again and deleted', () => {
    const recent = new Recent<string, number>(100, { limit: 1_000, of: (value) => value });
    recent.set('a', 5);
    recent.set('b', 3);
    expect(recent.weight).toBe(8);
    recent.set('b', 10);
    expect(recent.weight).toBe(15);
    recent.delete('a');
    expect(recent.weight).toBe(10);
    // Half the limit reached: the current map becomes the previous one, its weight with it.
    recent.set('c', 490);
    expect(recent.weight).toBe(500);
    expect(recent.get('b')).toBe(10);
    // Brought back from the previous map, it weighs in both until the previous one goes.
    expect(recent.weight).toBe(510);
    recent.set('d', 500);
    expect(recent.get('c')).toBeUndefined();
    expect([recent.get('b'), recent.get('d')]).toEqual([10, 500]);
    expect(new Recent<string, number>(10).weight).toBe(0);
  });
});
