import { createHash } from 'node:crypto';
import type { NewEvent, RecordedEvent } from './port';

/**
 * Tamper evidence: each event's metadata carries `chainHash`, the SHA-256 of the previous event's
 * hash in the same stream and of this event's stream, revision, id, type, data and metadata. An
 * event changed, removed or reordered after it was written no longer matches its hash, and every
 * later event of its stream then fails to match too.
 */

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with keys sorted at every level, so the hash survives storage that reorders keys (jsonb). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function eventHash(previousHash: string, streamId: string, revision: bigint, event: NewEvent): string {
  const { chainHash: _ignored, ...metadata } = event.metadata;
  return createHash('sha256')
    .update(previousHash)
    .update('\n')
    .update(canonicalJson([streamId, revision.toString(), event.id, event.type, event.data, metadata]))
    .digest('hex');
}

/** The events to append, each with its chain hash, continuing from the stream's last hash. */
export function chainEvents(
  streamId: string,
  firstRevision: bigint,
  previousHash: string,
  events: NewEvent[],
): NewEvent[] {
  let previous = previousHash;
  return events.map((event, i) => {
    const chainHash = eventHash(previous, streamId, firstRevision + BigInt(i), event);
    previous = chainHash;
    return { ...event, metadata: { ...event.metadata, chainHash } };
  });
}

export function chainHashOf(event: Pick<NewEvent, 'metadata'> | undefined): string {
  const hash = event?.metadata.chainHash;
  return typeof hash === 'string' ? hash : GENESIS_HASH;
}

export interface ChainBreak {
  streamId: string;
  revision: bigint;
  eventId: string;
  reason: string;
}

/**
 * Follows every stream's chain through the log (in position order) and names the first event of
 * each stream whose hash does not match; streams are independent, so one break hides no other.
 */
export class ChainVerifier {
  private readonly last = new Map<string, { revision: bigint; hash: string }>();
  private readonly broken = new Map<string, ChainBreak>();
  checked = 0;

  add(event: RecordedEvent): void {
    this.checked += 1;
    if (this.broken.has(event.streamId)) return;
    const before = this.last.get(event.streamId);
    const reason = problemWith(event, before);
    if (reason) {
      this.broken.set(event.streamId, {
        streamId: event.streamId,
        revision: event.revision,
        eventId: event.id,
        reason,
      });
    } else {
      this.last.set(event.streamId, { revision: event.revision, hash: String(event.metadata.chainHash) });
    }
  }

  get streams(): number {
    return new Set([...this.last.keys(), ...this.broken.keys()]).size;
  }

  breaks(): ChainBreak[] {
    return [...this.broken.values()].sort((a, b) => a.streamId.localeCompare(b.streamId));
  }
}

function problemWith(event: RecordedEvent, before: { revision: bigint; hash: string } | undefined) {
  const expectedRevision = before ? before.revision + 1n : 0n;
  if (event.revision !== expectedRevision) {
    return `expected revision ${expectedRevision}, found ${event.revision} (an event is missing)`;
  }
  const stored = event.metadata.chainHash;
  if (typeof stored !== 'string') return 'the event carries no chain hash';
  const computed = eventHash(before?.hash ?? GENESIS_HASH, event.streamId, event.revision, event);
  if (computed !== stored) return 'its content or its predecessor changed after it was written';
  return undefined;
}
