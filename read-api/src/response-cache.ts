import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Marks } from './consistency';

const gzipAway = promisify(gzip);
const gunzipAway = promisify(gunzip);

/**
 * Bodies up to this size are compressed (and expanded) on the spot rather than on the thread pool:
 * a few kilobytes cost a fraction of a millisecond, less than the trip to the pool and back, which
 * under load waits its turn in the event loop like any other.
 */
const ON_THE_SPOT_BYTES = 32 * 1024;
const gzipped = async (raw: Buffer) => (raw.length <= ON_THE_SPOT_BYTES ? gzipSync(raw) : gzipAway(raw));
const gunzipped = async (gzip: Buffer) =>
  gzip.length <= ON_THE_SPOT_BYTES / 4 ? gunzipSync(gzip) : gunzipAway(gzip);

/** A finished JSON body, kept compressed; its ETag names its content. */
export interface CachedBody {
  gzip: Buffer;
  etag: string;
  /** Headers read with the body (a list's `Link` to its next page). */
  headers?: Record<string, string>;
}

/** What a read gives the cache: the body's value, the marks of its snapshot and its headers. */
export interface FreshBody {
  marks: Marks;
  value: unknown;
  headers?: Record<string, string>;
}

interface Entry extends CachedBody {
  marks: Marks;
  /** What keeping it costs: the body, the validator, the key and the bookkeeping around them. */
  bytes: number;
}

/** What a kept entry costs beyond its body, etag and key: the map slot and the objects. */
const ENTRY_OVERHEAD_BYTES = 256;

export interface ResponseCacheLimits {
  /** At most this many bytes of bodies, keys and bookkeeping. */
  budgetBytes: number;
  /** At most this many bodies. */
  maxEntries: number;
}

/**
 * Finished bodies of a read route, by where its read models stood when the body was read (their
 * marks) and by everything else it depends on (the variant: who reads it, the query, the minute).
 * A request looks up the marks the read models have now, so a body is served only while nothing
 * it was read from has changed: after any write that reached those read models, the next request
 * reads afresh. Requests that miss together share one read.
 *
 * The least recently used bodies go first once the entries or their bytes pass the limits. A
 * variant is kept by its digest, so a client sending huge query values costs a fixed key size.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly reading = new Map<string, Promise<CachedBody>>();
  private bytes = 0;
  private readonly limits: ResponseCacheLimits;

  constructor(limits: Partial<ResponseCacheLimits> = {}) {
    this.limits = { budgetBytes: 64 * 2 ** 20, maxEntries: 10_000, ...limits };
  }

  /** How many bodies are kept and what they cost. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * The body for `variant` as of `marks`, or read by `read`, which returns the marks its own
   * snapshot was taken at (the same or later ones) with the value.
   */
  async body(variant: string, marks: Marks, read: () => Promise<FreshBody>): Promise<CachedBody> {
    const digest = digestOf(variant);
    const key = `${marks.key}\n${digest}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const pending = this.reading.get(key);
    if (pending) return pending;
    const done = this.readAndKeep(digest, read).finally(() => this.reading.delete(key));
    this.reading.set(key, done);
    return done;
  }

  private async readAndKeep(digest: string, read: () => Promise<FreshBody>): Promise<CachedBody> {
    const { marks, value, headers } = await read();
    const raw = Buffer.from(JSON.stringify(value));
    const gzip = await gzipped(raw);
    // The headers are part of the representation: a page that gains a next page is a new one.
    const hash = createHash('sha1').update(raw);
    if (headers) hash.update(JSON.stringify(headers));
    const etag = `"${hash.digest('base64url')}"`;
    const key = `${marks.key}\n${digest}`;
    const entry: Entry = {
      marks,
      gzip,
      etag,
      headers,
      bytes:
        gzip.length +
        Buffer.byteLength(key) +
        etag.length +
        (headers ? Buffer.byteLength(JSON.stringify(headers)) : 0) +
        ENTRY_OVERHEAD_BYTES,
    };
    // Bodies read before these marks can no longer be asked for.
    for (const [old, kept] of this.entries) if (kept.marks.before(marks)) this.drop(old);
    this.drop(key);
    if (entry.bytes > this.limits.budgetBytes) return entry;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.limits.budgetBytes && this.entries.size <= this.limits.maxEntries) break;
      this.drop(oldest);
    }
    return entry;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

const digestOf = (variant: string) => createHash('sha256').update(variant).digest('base64url');

/** Whether the client takes gzip (Accept-Encoding names it, or `*`, without q=0). */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding?.trim() !== 'gzip' && coding?.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a cached body: gzip-encoded when the client accepts it, 304 when the client already holds
 * this exact representation. The ETag differs per encoding, as a strong validator must.
 */
export async function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody) {
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  const etag = gzip ? `${body.etag.slice(0, -1)}-gzip"` : body.etag;
  reply.header('etag', etag).header('vary', 'accept-encoding').header('cache-control', 'private, no-cache');
  for (const [name, value] of Object.entries(body.headers ?? {})) reply.header(name, value);
  if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
  reply.type('application/json; charset=utf-8');
  if (gzip) return reply.header('content-encoding', 'gzip').send(body.gzip);
  return reply.send(await gunzipped(body.gzip));
}
