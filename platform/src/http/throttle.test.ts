import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../db/connect';
import { migrate } from '../db/migrate';
import { createTestDatabase } from '../testing/database';
import { type Admitted, LoginThrottle, type Refused, throttleMigrations } from './throttle';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: ReturnType<typeof connect>;
let throttle: LoginThrottle;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url);
  await migrate(sql, 'login-throttle', throttleMigrations);
  throttle = new LoginThrottle(sql);
});
afterAll(async () => {
  await sql.end();
  await db.drop();
});

const admitted = (outcomes: (Admitted | Refused)[]) => outcomes.filter((o) => o.admitted).length;

/** `count` wrong guesses, one after the other, each from the address `from(i)`. */
async function guesses(account: string, count: number, from: (i: number) => string, at = new Date()) {
  const outcomes: (Admitted | Refused)[] = [];
  for (let i = 0; i < count; i++) outcomes.push(await throttle.admit(account, from(i), at));
  return outcomes;
}

describe('sign-in throttling', () => {
  it('lets no more simultaneous guesses through than the limit, however many arrive at once', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () => throttle.admit('parallel', '198.51.100.1')),
    );
    expect(admitted(outcomes)).toBe(5);
    for (const refused of outcomes.filter((o): o is Refused => !o.admitted)) {
      expect(refused.retryAfter).toBeGreaterThan(14 * 60);
      expect(refused.retryAfter).toBeLessThanOrEqual(15 * 60);
    }
  });

  it('stops one address guessing across many accounts', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => throttle.admit(`account-${i}`, '198.51.100.2')),
    );
    expect(admitted(outcomes)).toBe(30);
  });

  it('forgives an address its failures once the password was right there', async () => {
    const earlier = await guesses('forgetful', 4, () => '198.51.100.3');
    expect(admitted(earlier)).toBe(4);
    const right = await throttle.admit('forgetful', '198.51.100.3');
    await throttle.succeeded(right as Admitted);
    expect(admitted(await guesses('forgetful', 5, () => '198.51.100.3'))).toBe(5);
  });

  it('counts again once the window has passed', async () => {
    const long = new Date(Date.now() - 16 * 60_000);
    expect(admitted(await guesses('patient', 6, () => '198.51.100.4', long))).toBe(5);
    expect((await throttle.admit('patient', '198.51.100.4')).admitted).toBe(true);
  });

  it('slows an account attacked from many addresses with growing delays, never its holder at a clean address', async () => {
    const at = new Date();
    const attackers = (i: number) => `203.0.113.${i % 10}`;
    expect(admitted(await guesses('targeted', 10, attackers, at))).toBe(10);
    const first = await throttle.admit('targeted', attackers(100), at);
    expect(first).toEqual({ admitted: false, retryAfter: 30 });
    const later = new Date(at.getTime() + 30_000);
    expect((await throttle.admit('targeted', attackers(101), later)).admitted).toBe(true);
    const second = await throttle.admit('targeted', attackers(102), later);
    expect(second).toEqual({ admitted: false, retryAfter: 60 });
    // The holder, at an address with no failures, is let through while the account is slowed down.
    const holder = await throttle.admit('targeted', '192.0.2.10', later);
    expect(holder.admitted).toBe(true);
    await throttle.succeeded(holder as Admitted);
    expect((await throttle.admit('targeted', attackers(103), later)).admitted).toBe(false);
    // An address that never failed gets one try, then waits like the others.
    expect((await throttle.admit('targeted', '198.51.100.200', later)).admitted).toBe(true);
    expect((await throttle.admit('targeted', '198.51.100.200', later)).admitted).toBe(false);
  });
});
