import { HttpError } from '@shiftcover/platform';
import type { Sql } from 'postgres';

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
