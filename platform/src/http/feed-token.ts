import { createHash, randomBytes } from 'node:crypto';

/** A calendar feed's token as it is handed out: 32 random bytes in base64url. */
const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh secret for a calendar feed's address. */
export function newFeedToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The digest a feed is recorded and found by, so neither the log nor a read model holds a working
 * address; null for anything that could not be a token, which is then never looked up.
 */
export function feedTokenHash(token: string): string | null {
  return FEED_TOKEN.test(token) ? createHash('sha256').update(token).digest('hex') : null;
}
