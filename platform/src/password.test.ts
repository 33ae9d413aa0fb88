import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password';

// The real scrypt, watched: which parameters each password check ran with.
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});
const scryptCalls = () => vi.mocked(crypto.scrypt).mock.calls;

/** A hash as stored before the cost was raised: scrypt N=2^15. */
function legacyHash(password: string) {
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(password, salt, 64, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('refuses a malformed stored hash', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$abc$8$1$c2FsdA==$a2V5')).toBe(false);
  });

  it('keeps verifying hashes made at the earlier cost, and asks for them to be replaced', async () => {
    const old = legacyHash('s3cret!');
    expect(await verifyPassword('s3cret!', old)).toBe(true);
    expect(await verifyPassword('s3cret?', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('s3cret!'))).toBe(false);
  });

  it('checks a password for an account that does not exist at the same cost as for one that does', async () => {
    const known = await hashPassword('s3cret!');
    await verifyPassword('guess', null); // the first call also makes the stand-in hash
    const before = scryptCalls().length;
    expect(await verifyPassword('guess', known)).toBe(false);
    expect(await verifyPassword('guess', null)).toBe(false);
    expect(await verifyPassword('guess', undefined)).toBe(false);
    const costs = scryptCalls()
      .slice(before)
      .map((call) => (call[3] as crypto.ScryptOptions).N);
    expect(costs).toEqual([2 ** 17, 2 ** 17, 2 ** 17]);
  });
});
