import { createHash } from 'node:crypto';
import { streams as named } from '@shiftcover/domain';

/** The domain's stream names, with a unique value's claim named by a SHA-256 of the normalised value. */
export const streams = {
  ...named,
  unique: (kind: string, normalisedValue: string) =>
    named.unique(kind, createHash('sha256').update(normalisedValue).digest('hex').slice(0, 40)),
};

/** A reservation younger than this is a command still in flight, never taken for abandoned. */
export const RESERVATION_GRACE_MS = 30_000;
