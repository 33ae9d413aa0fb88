import { describe, expect, it } from 'vitest';
import { expectedEmails, pollDelay } from './bulk-poll';

describe('bulk test status polling', () => {
  it('polls first after 5 s, then every 30 s, twelve times in all', () => {
    const delays: number[] = [];
    for (let poll = 0; ; poll++) {
      const delay = pollDelay(poll);
      if (delay === null) break;
      delays.push(delay);
    }
    expect(delays).toEqual([5_000, ...Array(11).fill(30_000)]);
  });

  it('expects four e-mails per shift', () => {
    expect(expectedEmails(20)).toBe(80);
  });
});
