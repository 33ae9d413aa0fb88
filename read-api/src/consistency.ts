import { HttpError } from '@shiftcover/platform';
import type { Sql, TransactionSql } from 'postgres';

const MAX_WAIT_MS = 5_000;

/**
 * Read-your-writes: a request that names the position of its own last write waits until the
 * read models it reads have applied it. Woken at once by the projector in this process, and
 * polling the checkpoints for projectors elsewhere.
 */
export class Positions {
  private waiters = new Set<() => void>();

  constructor(private readonly sql: Sql) {}

  /** The projector calls this after every batch. */
  advanced(): void {
    for (const wake of this.waiters) wake();
  }

  async waitFor(min: bigint, readModels: readonly string[]): Promise<void> {
    const deadline = Date.now() + MAX_WAIT_MS;
    while (!(await this.reached(min, readModels))) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new HttpError(
          503,
          'The latest changes are still being processed. Please try again in a moment.',
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 50));
        this.waiters.add(wake);
      });
    }
  }

  /** Where these read models stand now. */
  marks(readModels: readonly string[]): Promise<Marks> {
    return readMarks(this.sql, readModels);
  }

  /** The position every read model has reached. */
  async everywhere(): Promise<bigint> {
    const [row] = await this.sql<
      { position: bigint | null }[]
    >`select min(position) as position from projection_checkpoints`;
    return row?.position == null ? 0n : BigInt(row.position);
  }

  private async reached(min: bigint, readModels: readonly string[]): Promise<boolean> {
    const rows = await this.sql<{ position: bigint }[]>`
      select position from projection_checkpoints where name = any(${readModels as string[]})`;
    return rows.length === readModels.length && rows.every((row) => BigInt(row.position) >= min);
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
