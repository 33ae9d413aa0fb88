import { HttpError } from '@shiftcover/platform';
import { CHECKPOINT_CHANNEL, checkpointNotice } from '@shiftcover/projections';
import type { Sql, TransactionSql } from 'postgres';

const MAX_WAIT_MS = 5_000;

/** Where a read model stands: its generation (a rebuild swaps in the next) and its position. */
interface Point {
  generation: number;
  position: bigint;
}

interface Waiter {
  /** A read model reached a position. */
  heard(readModel: string, position: bigint): void;
  /** Notices may have been missed (the listening connection was re-established): look again. */
  lost(): void;
}

/**
 * Read-your-writes: a request that names the position of its own last write waits until the
 * read models it reads have applied it. It reads the checkpoints once, then waits for news of
 * their advance: from the projector in this process (`advanced`) or, for a projector elsewhere,
 * from the database's notice on every checkpoint change (`CHECKPOINT_CHANNEL`).
 *
 * The same news keeps the marks of every read model in memory (`marks`): read once from the
 * checkpoints, then moved by each advance and notice, and read again whenever notices may have
 * been missed, so a request learns where the read models stand without a query.
 */
export class Positions {
  private readonly waiters = new Set<Waiter>();
  private listening: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly stands = new Map<string, Point>();
  private following: Promise<void> | undefined;

  /**
   * `hurry` wakes the projector in this process, when there is one: a request that has to wait
   * for its own write asks for it at once, rather than when the store's doorbell next rings.
   */
  constructor(
    private readonly sql: Sql,
    private readonly hurry: () => void = () => {},
  ) {}

  /**
   * The projector in this process calls this after every batch, with the read model's new
   * checkpoint; notices call it with the generation too.
   */
  advanced(readModel: string, position: bigint, generation?: number): void {
    this.raise(readModel, position, generation);
    for (const waiter of this.waiters) waiter.heard(readModel, position);
  }

  async waitFor(min: bigint, readModels: readonly string[]): Promise<void> {
    await this.listen();
    // Marks come only from checkpoints as committed (an advance, a notice, a look), and a live
    // checkpoint only moves forward: marks already at `min` need no look.
    if (readModels.every((name) => (this.stands.get(name)?.position ?? -1n) >= min)) return;
    this.hurry();
    // What the marks already show stands: a read model past `min` there need not be heard again.
    const stand = new Map<string, bigint>();
    for (const name of readModels) {
      const known = this.stands.get(name);
      if (known) stand.set(name, known.position);
    }
    const reached = () => readModels.every((name) => (stand.get(name) ?? -1n) >= min);
    let arrived = () => {};
    const settled = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const heard = (name: string, position: bigint) => {
      if (!readModels.includes(name) || position <= (stand.get(name) ?? -1n)) return;
      stand.set(name, position);
      if (reached()) arrived();
    };
    // What the look finds moves the marks too (and every other waiter): a notice or an advance of
    // the same checkpoint may come only after this wait returns, and a request that waited must
    // not then look up its cached answer under marks from before the position it waited for.
    const look = async () => {
      for (const { name, position, generation } of await this.checkpoints(readModels))
        this.advanced(name, position, generation);
    };
    // Listening before the one look: an advance between the two is heard, not lost.
    const waiter: Waiter = { heard, lost: () => void look().catch(() => undefined) };
    this.waiters.add(waiter);
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), MAX_WAIT_MS);
      });
      // The advance can be heard before the look answers: whichever comes first ends the wait (a
      // look that fails ends it with its error).
      const looked = look().then(() => new Promise<never>(() => {}));
      if ((await Promise.race([settled, looked, late])) === 'late') {
        throw new HttpError(
          503,
          'The latest changes are still being processed. Please try again in a moment.',
        );
      }
    } finally {
      clearTimeout(timer);
      this.waiters.delete(waiter);
    }
  }

  /** Stops listening for the database's notices. */
  async close(): Promise<void> {
    const unlisten = this.unlisten;
    this.listening = undefined;
    this.following = undefined;
    this.unlisten = undefined;
    // The listening connection may already be gone with the pool; there is nothing left to undo.
    await unlisten?.().catch(() => undefined);
  }

  /** Where these read models stand now, as far as this process has heard. */
  async marks(readModels: readonly string[]): Promise<Marks> {
    await this.follow();
    return new Marks(readModels.map((name) => this.stands.get(name) ?? { generation: 0, position: 0n }));
  }

  /** Listens for the notices, then reads every checkpoint once: from then on the marks are in memory. */
  private follow(): Promise<void> {
    this.following ??= this.listen()
      .then(() => this.lookEverywhere())
      .catch((error: unknown) => {
        this.following = undefined;
        throw error;
      });
    return this.following;
  }

  /** Takes in a read model's checkpoint: a later generation, or a later position in the same one. */
  private raise(readModel: string, position: bigint, generation?: number): void {
    const known = this.stands.get(readModel);
    // Without its generation, an advance moves only a read model whose generation is known.
    if (generation === undefined && !known) return;
    const point = { generation: generation ?? known!.generation, position };
    if (
      !known ||
      point.generation > known.generation ||
      (point.generation === known.generation && point.position > known.position)
    ) {
      this.stands.set(readModel, point);
    }
  }

  private async lookEverywhere(): Promise<void> {
    const rows = await this.sql<{ name: string; generation: number; position: bigint }[]>`
      select name, generation, position from projection_checkpoints`;
    for (const row of rows) this.raise(row.name, BigInt(row.position), row.generation);
  }

  /** The position every read model has reached, as far as this process has heard: never beyond it. */
  async everywhere(): Promise<bigint> {
    await this.follow();
    let least: bigint | undefined;
    for (const { position } of this.stands.values())
      if (least === undefined || position < least) least = position;
    return least ?? 0n;
  }

  /** Listens once for the checkpoints' notices; a listen that failed is tried again by the next wait. */
  private listen(): Promise<void> {
    this.listening ??= this.sql
      .listen(
        CHECKPOINT_CHANNEL,
        (payload) => {
          for (const { name, position, generation } of checkpointNotice(payload)) {
            this.advanced(name, position, generation);
          }
        },
        () => {
          if (this.following) void this.lookEverywhere().catch(() => undefined);
          for (const waiter of this.waiters) waiter.lost();
        },
      )
      .then(
        (meta) => {
          this.unlisten = meta.unlisten;
        },
        (error: unknown) => {
          this.listening = undefined;
          throw error;
        },
      );
    return this.listening;
  }

  private async checkpoints(readModels: readonly string[]): Promise<Array<Point & { name: string }>> {
    const rows = await this.sql<{ name: string; generation: number; position: bigint }[]>`
      select name, generation, position from projection_checkpoints where name = any(${readModels as string[]})`;
    return rows.map((row) => ({
      name: row.name,
      generation: row.generation,
      position: BigInt(row.position),
    }));
  }
}

/** The `x-min-position` header, if the client sent a valid one. */
export function minPosition(header: string | string[] | undefined): bigint | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{1,19}$/.test(value)) return undefined;
  return BigInt(value);
}

/**
 * Where some read models stand: the generation (a rebuild swaps in the next one) and the position
 * of each. Each changes only forwards, and every change of a read model's content changes them.
 */
export class Marks {
  readonly key: string;

  constructor(private readonly points: ReadonlyArray<{ generation: number; position: bigint }>) {
    this.key = points.map((p) => `${p.generation}.${p.position}`).join(',');
  }

  /** Whether these marks are older than `other`'s, for the same read models. */
  before(other: Marks): boolean {
    if (this.key === other.key || this.points.length !== other.points.length) return false;
    return this.points.every((p, i) => {
      const q = other.points[i]!;
      return p.generation < q.generation || (p.generation === q.generation && p.position <= q.position);
    });
  }
}

/** The marks of these read models, in the order given, as `db` (perhaps a snapshot) sees them. */
export async function readMarks(db: Sql | TransactionSql, readModels: readonly string[]): Promise<Marks> {
  const rows = await db<{ name: string; generation: number; position: bigint }[]>`
    select name, generation, position from projection_checkpoints where name = any(${readModels as string[]})`;
  return new Marks(
    readModels.map((name) => {
      const row = rows.find((r) => r.name === name);
      return { generation: row?.generation ?? 0, position: row ? BigInt(row.position) : 0n };
    }),
  );
}
