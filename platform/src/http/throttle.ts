import { randomUUID } from 'node:crypto';
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
  {
    // Each attempt is counted before its password is checked, under the attempt's id, so that a
    // success can take back what it was counted as.
    id: '002-login-attempt-ids',
    up: `alter table login_failures add column attempt uuid;
    create index login_failures_attempt on login_failures (attempt);`,
  },
];

export interface ThrottleLimits {
  /** Failures of one account from one address before that address waits out the window. */
  perAccountAndAddress: number;
  /** Failures from one address, whatever the accounts, before it waits out the window. */
  perAddress: number;
  /** Failures of one account from every address before its attempts are slowed down. */
  perAccount: number;
  /** The first delay past `perAccount`; each further failure doubles it, up to the window. */
  backoffMs: number;
  windowMs: number;
}

/** The first key of this throttle's two-key advisory locks. */
const LOCK_CLASS = 5_640_001;

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = {
  perAccountAndAddress: 5,
  perAddress: 30,
  perAccount: 10,
  backoffMs: 30_000,
  windowMs: 15 * 60_000,
};

/** An attempt let through: the password may be checked. */
export interface Admitted {
  admitted: true;
  attempt: string;
  account: string;
  address: string;
}

/** An attempt refused before any password is checked; `retryAfter` is in seconds. */
export interface Refused {
  admitted: false;
  retryAfter: number;
}

/**
 * Sign-in attempts that failed, counted over a sliding window per account and address, per address
 * and per account, in PostgreSQL so that every server process counts the same attempts.
 *
 * An attempt is counted as a failure when it is admitted, before its password is checked, and
 * counting and deciding happen under a lock on the account and the address: however many guesses
 * arrive at once, no more are checked than the limits allow. A success takes its count back.
 *
 * One account failing from many addresses is slowed down with growing delays rather than locked,
 * and only for addresses that have failed recently: whoever floods an account's sign-in cannot
 * keep its holder, signing in from an address of their own, out.
 */
export class LoginThrottle {
  constructor(
    private readonly sql: Sql,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
  ) {}

  /**
   * Counts and decides an attempt made at `at`; without it, at the moment its locks are held, so
   * that attempts waiting for one another are timed in the order they are decided and none is
   * told to wait longer than the window.
   */
  async admit(account: string, address: string, at?: Date): Promise<Admitted | Refused> {
    const keys = {
      pair: pairKey(account, address),
      address: addressKey(address),
      account: accountKey(account),
    };
    return this.sql.begin(async (tx) => {
      // Always the address first, then the account: every attempt takes the two locks in one order.
      // Two-key advisory locks never meet the event store's one-key ones.
      for (const key of [keys.address, keys.account]) {
        await tx`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${key}))`;
      }
      const now = at ?? new Date();
      const since = new Date(now.getTime() - this.limits.windowMs);
      const rows = await tx<{ key: string; failures: number; oldest: Date; newest: Date }[]>`
        select key, count(*)::int as failures, min(at) as oldest, max(at) as newest from login_failures
        where key in ${tx([keys.pair, keys.address, keys.account])} and at > ${since}
        group by key`;
      const wait = this.waitMs((key: string) => rows.find((row) => row.key === key), keys, now);
      if (wait > 0) return { admitted: false as const, retryAfter: Math.ceil(wait / 1000) };
      const attempt = randomUUID();
      await tx`insert into login_failures (key, at, attempt)
        select unnest(${[keys.pair, keys.address, keys.account]}::text[]), ${now}::timestamptz, ${attempt}::uuid`;
      await tx`delete from login_failures where at <= ${since}`;
      return { admitted: true as const, attempt, account, address };
    });
  }

  /** The password was right: the attempt was no failure, and earlier ones from this address are forgiven. */
  async succeeded(admitted: Admitted): Promise<void> {
    await this.sql`delete from login_failures
      where attempt = ${admitted.attempt} or key = ${pairKey(admitted.account, admitted.address)}`;
  }

  private waitMs(
    counted: (key: string) => { failures: number; oldest: Date; newest: Date } | undefined,
    keys: { pair: string; address: string; account: string },
    now: Date,
  ): number {
    const { windowMs } = this.limits;
    const untilWindowEnds = (row: { oldest: Date }) => row.oldest.getTime() + windowMs - now.getTime();
    let wait = 0;
    const pair = counted(keys.pair);
    if (pair && pair.failures >= this.limits.perAccountAndAddress)
      wait = Math.max(wait, untilWindowEnds(pair));
    const address = counted(keys.address);
    if (address && address.failures >= this.limits.perAddress)
      wait = Math.max(wait, untilWindowEnds(address));
    const account = counted(keys.account);
    if (address && account && account.failures >= this.limits.perAccount) {
      const excess = account.failures - this.limits.perAccount;
      const delay = Math.min(this.limits.backoffMs * 2 ** Math.min(excess, 30), windowMs);
      wait = Math.max(wait, account.newest.getTime() + delay - now.getTime());
    }
    return wait;
  }

  /** Forgets the failed sign-ins under a username, which names a person being erased. */
  async forget(username: string): Promise<void> {
    const account = normalised(username);
    await this.sql`delete from login_failures
      where key = ${accountKey(account)} or starts_with(key, ${`pair:${account}|`})`;
  }
}

const normalised = (account: string) => account.trim().toLowerCase();
const pairKey = (account: string, address: string) => `pair:${normalised(account)}|${address}`;
const addressKey = (address: string) => `address:${address}`;
const accountKey = (account: string) => `user:${normalised(account)}`;
