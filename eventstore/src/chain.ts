import { createHmac, hash } from 'node:crypto';
import type { NewEvent, RecordedEvent } from './port';

/**
 * Tamper evidence: each event's metadata carries `chainHash`, computed over the previous event's
 * hash in the same stream and this event's stream, revision, id, type, data and metadata. An event
 * changed, removed or reordered after it was written no longer matches its hash, and every later
 * event of its stream then fails to match too.
 *
 * The hash is an HMAC-SHA-256 under the audit chain key, which is kept outside the database: with
 * database access alone history cannot be rewritten and sealed again. Such hashes read `v2:<hex>`.
 * Events written before the chain was keyed carry a plain SHA-256 (`<hex>`, version 1) and keep
 * verifying; once a keyed event is in the log, an unkeyed one after it is a break, so a rewrite
 * cannot pass itself off as history from before the key.
 */

/** The key of the audit hash chain; without it appends are chained the unkeyed way of version 1. */
export type ChainKey = Buffer;

const KEYED = 'v2:';

export const GENESIS_HASH = '0'.repeat(64);

/**
 * JSON with keys sorted at every level, so the hash survives storage that reorders keys (jsonb):
 * keys without a value left out, an array's holes left empty. Every stored hash was made over this
 * exact text. It is built in one string as it goes: every append hashes its events, and building
 * it from arrays of entries made a tenth of what the server allocated for claims and approvals.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      if (i in value) text += canonicalJson(value[i]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // Sorted by UTF-16 code units, as comparing the keys as strings orders them.
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const field = record[key];
    if (field === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalJson(field)}`;
  }
  return `${text}}`;
}

export function eventHash(
  previousHash: string,
  streamId: string,
  revision: bigint,
  event: NewEvent,
  key?: ChainKey,
): string {
  const { chainHash: _ignored, ...metadata } = event.metadata;
  const content = canonicalJson([streamId, revision.toString(), event.id, event.type, event.data, metadata]);
  if (!key) return hash('sha256', `${previousHash}\n${content}`, 'hex');
  return `${KEYED}${createHmac('sha256', key).update(previousHash).update('\n').update(content).digest('hex')}`;
}

/** The events to append, each with its chain hash, continuing from the stream's last hash. */
export function chainEvents(
  streamId: string,
  firstRevision: bigint,
  previousHash: string,
  events: NewEvent[],
  key?: ChainKey,
): NewEvent[] {
  let previous = previousHash;
  return events.map((event, i) => {
    const chainHash = eventHash(previous, streamId, firstRevision + BigInt(i), event, key);
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
  private keyedSeen = false;
  checked = 0;
  /** Events that carry the unkeyed hash of before the key: evidence of accidents, not of intent. */
  unkeyed = 0;

  /** Without the key, keyed events cannot be checked and count as breaks. */
  constructor(private readonly key?: ChainKey) {}

  add(event: RecordedEvent): void {
    this.checked += 1;
    const stored = event.metadata.chainHash;
    const keyed = typeof stored === 'string' && stored.startsWith(KEYED);
    if (typeof stored === 'string' && !keyed) this.unkeyed += 1;
    if (this.broken.has(event.streamId)) return;
    const before = this.last.get(event.streamId);
    const reason = this.problemWith(event, before, keyed);
    this.keyedSeen ||= keyed;
    if (reason) {
      this.broken.set(event.streamId, {
        streamId: event.streamId,
        revision: event.revision,
        eventId: event.id,
        reason,
      });
    } else {
      this.last.set(event.streamId, { revision: event.revision, hash: String(stored) });
    }
  }

  get streams(): number {
    return new Set([...this.last.keys(), ...this.broken.keys()]).size;
  }

  breaks(): ChainBreak[] {
    return [...this.broken.values()].sort((a, b) => a.streamId.localeCompare(b.streamId));
  }

  private problemWith(
    event: RecordedEvent,
    before: { revision: bigint; hash: string } | undefined,
    keyed: boolean,
  ): string | undefined {
    const expectedRevision = before ? before.revision + 1n : 0n;
    if (event.revision !== expectedRevision) {
      return `expected revision ${expectedRevision}, found ${event.revision} (an event is missing)`;
    }
    const stored = event.metadata.chainHash;
    if (typeof stored !== 'string') return 'the event carries no chain hash';
    if (keyed && !this.key) return 'its hash is keyed and no audit chain key was given';
    if (!keyed && this.keyedSeen) {
      return 'it carries an unkeyed hash though keyed events come before it (rewritten without the key)';
    }
    const previous = before?.hash ?? GENESIS_HASH;
    const computed = eventHash(previous, event.streamId, event.revision, event, keyed ? this.key : undefined);
    if (computed !== stored) return 'its content or its predecessor changed after it was written';
    return undefined;
  }
}
