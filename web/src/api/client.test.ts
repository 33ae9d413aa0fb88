import { describe, expect, it } from 'vitest';
import { nextPageOf } from './client';

describe('the next page of a list', () => {
  it('is the target of the Link header’s rel="next"', () => {
    expect(nextPageOf('</api/shifts?status=all&limit=50&cursor=abc>; rel="next"')).toBe(
      '/api/shifts?status=all&limit=50&cursor=abc',
    );
  });

  it('is absent on the last page', () => {
    expect(nextPageOf(null)).toBeNull();
    expect(nextPageOf('</api/shifts?cursor=abc>; rel="prev"')).toBeNull();
  });
});
