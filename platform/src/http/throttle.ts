import type { Sql } from 'postgres';
import type { Migration } from '../db/migrate';

export const throttleMigrations: Migration[] = [
  {
    id: '001-login-failures',
    up: `create table login_failures (
      key text not null,
      at timestamptz not null default now()
    );
    create index login_failures_key_at on login_failures (key, at);`,
  },
];

export interface ThrottleLimits {
  perUsername: number;
  perAddress: number;
  windowMs: number;
}

const DEFAULT_LIMITS: ThrottleLimits = { perUsername: 5, perAddress: 30, windowMs: 15 * 60_000 };

/**
 * Failed sign-ins counted per username and per address over a sliding window, in PostgreSQL so
 * every server process counts the same attempts.
 */
export class LoginThrottle {
  constructor(
    private readonly sql: Sql,
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
  ) {}

  /** Seconds to wait before another attempt, or 0 when one is allowed now. */
  async waitFor(username: string, address: string, now = new Date()): Promise<number> {
    const since = new Date(now.getTime() - this.limits.windowMs);
    const rows = await this.sql<{ key: string; failures: number; oldest: Date }[]>`
      select key, count(*)::int as failures, min(at) as oldest from login_failures
      where key in (${userKey(username)}, ${addressKey(address)}) and at > ${since}
      group by key`;
    let wait = 0;
    for (const row of rows) {
      const limit = row.key.startsWith('user:') ? this.limits.perUsername : this.limits.perAddress;
      if (row.failures >= limit) {
        wait = Math.max(
          wait,
          Math.ceil((row.oldest.getTime() + this.limits.windowMs - now.getTime()) / 1000),
        );
      }
    }
    return wait;
  }

  async recordFailure(username: string, address: string): Promise<void> {
    await this.sql`insert into login_failures (key) values (${userKey(username)}), (${addressKey(address)})`;
    await this.sql`delete from login_failures where at < ${new Date(Date.now() - this.limits.windowMs)}`;
  }

  async recordSuccess(username: string): Promise<void> {
    await this.sql`delete from login_failures where key = ${userKey(username)}`;
  }
}

const userKey = (username: string) => `user:${username.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;
