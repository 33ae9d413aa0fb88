import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepRecent } from './recent';

describe('keepRecent', () => {
  it('holds at most the limit, the latest value of each key, and never forgets the most recent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 80 })),
        (limit, keys) => {
          const map = new Map<number, number>();
          const latest = new Map<number, number>();
          keys.forEach((key, i) => {
            keepRecent(map, key, i, limit);
            latest.set(key, i);
            expect(map.size).toBeLessThanOrEqual(limit);
            expect(map.get(key)).toBe(i);
          });
          // What is kept is the most recently used keys, newest last, each with its latest value.
          const order = [...latest.entries()].sort((a, b) => a[1] - b[1]).map(([key]) => key);
          expect([...map.keys()]).toEqual(order.slice(order.length - map.size));
          for (const [key, value] of map) expect(value).toBe(latest.get(key));
        },
      ),
    );
  });
});
