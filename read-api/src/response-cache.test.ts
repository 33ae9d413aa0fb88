import { describe, expect, it } from 'vitest';
import { Marks } from './consistency';
import { ResponseCache } from './response-cache';

const at = (position: number) => new Marks([{ generation: 1, position: BigInt(position) }]);

/** A read that counts how often it ran and answers a small list. */
function reader(marks: Marks) {
  const read = async () => {
    read.count += 1;
    return { marks, value: [{ id: 'shift-1', location: 'Maple House' }] };
  };
  read.count = 0;
  return read;
}

describe('the GET /api/shifts body cache', () => {
  it('serves a kept body again while the read models stand still, and reads afresh once they move', async () => {
    const cache = new ResponseCache();
    const read = reader(at(1));
    const first = await cache.body('admin', at(1), read);
    expect(await cache.body('admin', at(1), read)).toBe(first);
    expect(read.count).toBe(1);
    await cache.body('admin', at(2), reader(at(2)));
    expect(cache.size.entries).toBe(1);
  });

  it('stays within its byte budget, keys included, whatever the number and size of distinct filters', async () => {
    const budgetBytes = 256 * 1024;
    const cache = new ResponseCache({ budgetBytes });
    const read = reader(at(1));
    for (let i = 0; i < 4_500; i++) {
      const location = `${i}-${'x'.repeat(8 * 1024)}`;
      await cache.body(JSON.stringify(['staff', location, 'AM', 'open', i]), at(1), read);
      expect(cache.size.bytes).toBeLessThanOrEqual(budgetBytes);
    }
    expect(read.count).toBe(4_500);
    expect(cache.size.entries).toBeGreaterThan(0);
    // Each entry is charged what it holds: nothing is kept for free.
    expect(cache.size.bytes / cache.size.entries).toBeGreaterThan(256);
  });

  it('keeps a page’s Link header with its body, and a page that gains a next page is a new representation', async () => {
    const cache = new ResponseCache();
    const value = [{ id: 'shift-1' }];
    const link = '</api/shifts?limit=1&cursor=abc>; rel="next"';
    const last = await cache.body('page', at(1), async () => ({ marks: at(1), value }));
    const more = await cache.body('page', at(2), async () => ({ marks: at(2), value, headers: { link } }));
    expect(last.headers).toBeUndefined();
    expect(more.headers).toEqual({ link });
    expect(await cache.body('page', at(2), reader(at(2)))).toBe(more);
    expect(more.etag).not.toBe(last.etag);
  });

  it('keeps at most its number of entries, dropping the least recently used first', async () => {
    const cache = new ResponseCache({ maxEntries: 3 });
    const read = reader(at(1));
    for (const variant of ['a', 'b', 'c']) await cache.body(variant, at(1), read);
    await cache.body('a', at(1), read);
    await cache.body('d', at(1), read);
    expect(cache.size.entries).toBe(3);
    expect(read.count).toBe(4);
    await cache.body('a', at(1), read);
    expect(read.count).toBe(4);
    await cache.body('b', at(1), read);
    expect(read.count).toBe(5);
  });

  it('answers a body too large to keep without keeping it', async () => {
    const cache = new ResponseCache({ budgetBytes: 100 });
    const body = await cache.body('admin', at(1), reader(at(1)));
    expect(body.gzip.length).toBeGreaterThan(0);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});
