/** docs/product.md §9: after a bulk test, the queue status is polled from 5 s on, every 30 s, up to 12 times. */
export const FIRST_POLL_MS = 5_000;
export const POLL_EVERY_MS = 30_000;
export const MAX_POLLS = 12;
export const EMAILS_PER_SHIFT = 4;

/** How long to wait before poll number `poll` (0-based), or null when polling is over. */
export function pollDelay(poll: number): number | null {
  if (poll >= MAX_POLLS) return null;
  return poll === 0 ? FIRST_POLL_MS : POLL_EVERY_MS;
}

/** The e-mails a bulk test of this many shifts should produce. */
export function expectedEmails(shifts: number): number {
  return shifts * EMAILS_PER_SHIFT;
}
