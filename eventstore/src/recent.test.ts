import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Recent } from './recent';

type Step = { op: 'set'; key: number; value: number } | { op: 'get' | 'delete'; key: number };

describe('Recent', () => {
  it('holds at most its limit, gives only the latest value of a key, and keeps what was just used', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key: fc.nat(60), value: fc.nat() }),
      fc.record({ op: fc.constantFrom('get' as const, 'delete' as const), key: fc.nat(60) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(step, { maxLength: 300 }), (limit, steps) => {
        const recent = new Recent<number, number>(limit);
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
            // Forgetting is allowed; a value that was never the latest is not.
            if (found !== undefined) expect(found).toBe(latest.get(s.key));
          }
          expect(recent.size).toBeLessThanOrEqual(Math.max(limit, 2));
        }
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
});
