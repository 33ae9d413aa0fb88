import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt at the cost OWASP's Password Storage Cheat Sheet recommends
 * (N=2^17, r=8, p=1). Every hash names its own parameters, so hashes made at an earlier cost keep
 * verifying, and `needsRehash` tells sign-in to store a fresh one at the current cost.
 */
const KEY_LENGTH = 64;
const PRODUCTION = { cost: 2 ** 17, blockSize: 8, parallelism: 1 };
let current = PRODUCTION;

function scrypt(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scryptCallback(
      password,
      salt,
      KEY_LENGTH,
      { N: cost, r: blockSize, p: parallelism, maxmem: 256 * cost * blockSize },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** An scrypt hash in a self-describing form: `scrypt$N$r$p$salt$key`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { cost, blockSize, parallelism } = current;
  const key = await scrypt(password, salt, cost, blockSize, parallelism);
  return ['scrypt', cost, blockSize, parallelism, salt.toString('base64'), key.toString('base64')].join('$');
}

function parse(stored: string) {
  const [scheme, cost, blockSize, parallelism, salt, key] = stored.split('$');
  const params = { cost: Number(cost), blockSize: Number(blockSize), parallelism: Number(parallelism) };
  if (scheme !== 'scrypt' || !salt || !key || !Object.values(params).every(Number.isSafeInteger)) return null;
  return { ...params, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

// A hash of a random password made at the current cost: checking a password against it costs as
// much as checking a real account's, so an unknown username answers no faster than a known one.
let dummy: Promise<string> | undefined;
const dummyHash = () => {
  dummy ??= hashPassword(randomBytes(16).toString('base64'));
  return dummy;
};

/**
 * From now on, in this process, hashes new passwords (and the stand-in of a missing account) at
 * scrypt N=`cost` rather than the production 2^17. Only the in-process test servers call it: at the
 * production cost one sign-in takes about a second of CPU on a 2-core machine, and the tests sign in
 * hundreds of times. Every hash still names its own parameters, so whatever was hashed at
 * either cost verifies the same; the hashing itself is tested at the production cost.
 */
export function hashPasswordsCheaplyInTests(cost: number): void {
  current = { ...PRODUCTION, cost };
  dummy = undefined;
}

/**
 * Whether the password matches the stored hash. Without a stored hash (no such account) the
 * password is still checked, against a hash of the current cost, and the answer is false.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parse(stored ?? (await dummyHash()));
  if (!parsed) return false;
  const actual = await scrypt(password, parsed.salt, parsed.cost, parsed.blockSize, parsed.parallelism);
  return stored != null && actual.length === parsed.key.length && timingSafeEqual(actual, parsed.key);
}

/** Whether a stored hash was made with other parameters than today's and should be replaced. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return (
    !parsed ||
    parsed.cost !== current.cost ||
    parsed.blockSize !== current.blockSize ||
    parsed.parallelism !== current.parallelism
  );
}
