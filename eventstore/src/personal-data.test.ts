import { connect, migrate } from '@shiftcover/platform';
import { createTestDatabase, type TestDatabase } from '@shiftcover/platform/testing';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressSubject, type Erasure, PersonalDataVault, personalDataMigrations } from './personal-data';

let db: TestDatabase;
let sql: Sql;
let vault: PersonalDataVault;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = connect(db.url);
  await migrate(sql, 'personal-data', personalDataMigrations);
  vault = new PersonalDataVault(sql);
});

afterAll(async () => {
  await sql.end();
  await db.drop();
});

const registered = (userId: string, email: string) => ({
  type: 'UserRegistered',
  data: { userId, role: 'staff', personal: { username: `${userId}-name`, email, passwordHash: 'scrypt$x' } },
});

describe('personal data in events', () => {
  it('is stored sealed: no name, e-mail or hash can be read from the event data', async () => {
    const [sealed] = await vault.seal([registered('u1', 'ana@example.org')]);
    const stored = JSON.stringify(sealed);
    expect(stored).not.toContain('ana@example.org');
    expect(stored).not.toContain('u1-name');
    expect(stored).not.toContain('scrypt$x');
    expect(sealed?.data.role).toBe('staff');
  });

  it('opens again for as long as the person exists', async () => {
    const sealed = await vault.seal([registered('u2', 'ben@example.org')]);
    const [opened] = await vault.open(sealed);
    expect(opened?.data.personal).toEqual({
      username: 'u2-name',
      email: 'ben@example.org',
      passwordHash: 'scrypt$x',
    });
  });

  it('reads as null once the person is erased, and stays erased for later events', async () => {
    const before = await vault.seal([registered('u3', 'cara@example.org')]);
    await vault.erase('u3');
    const [opened] = await vault.open(before);
    expect(opened?.data.personal).toBeNull();

    const [after] = await vault.seal([registered('u3', 'cara@example.org')]);
    expect(after?.data.personal).toBeNull();
  });

  it('erasing one person leaves everyone else readable', async () => {
    const sealed = await vault.seal([
      registered('u4', 'dev@example.org'),
      registered('u5', 'eve@example.org'),
    ]);
    await vault.erase('u4');
    const opened = await vault.open(sealed);
    expect(opened.map((e) => e.data.personal === null)).toEqual([true, false]);
  });

  it('passes events without personal data through untouched', async () => {
    const event = { type: 'ShiftPosted', data: { shiftId: 's1', location: 'Maple House' } };
    expect(await vault.seal([event])).toEqual([event]);
    expect(await vault.open([event])).toEqual([event]);
  });

  it('seals an address typed in by hand under the address, unreadable once its owner is erased', async () => {
    const testMail = (email: string) => ({
      type: 'TestEmailSent',
      data: { personalSubject: addressSubject(email), personal: { email, subject: 'Hi', message: 'Test' } },
    });
    const sealed = await vault.seal([testMail('Fay@Example.org'), testMail('gus@example.org')]);
    expect(JSON.stringify(sealed)).not.toMatch(/fay@example\.org|gus@example\.org/i);
    expect((await vault.open(sealed)).map((e) => e.data.personal?.email)).toEqual([
      'Fay@Example.org',
      'gus@example.org',
    ]);
    const steps: Erasure[] = [];
    vault.alsoErase(async (erasure) => void steps.push(erasure));
    await vault.erase('u6', { username: 'fay', email: 'fay@example.org' });
    expect(steps).toEqual([{ subjectId: 'u6', personal: { username: 'fay', email: 'fay@example.org' } }]);
    expect((await vault.open(sealed)).map((e) => e.data.personal)).toEqual([
      null,
      { email: 'gus@example.org', subject: 'Hi', message: 'Test' },
    ]);
    // The address may be someone's again: a later mail to it is sealed under a new key.
    const [later] = await vault.open(await vault.seal([testMail('fay@example.org')]));
    expect(later?.data.personal?.email).toBe('fay@example.org');
  });
});
