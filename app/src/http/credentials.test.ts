import * as crypto from 'node:crypto';
import { createCommandService } from '@shiftcover/command-api';
import { streams, type UserState, userDecider } from '@shiftcover/domain';
import { createLogger, hashPassword, loadConfig } from '@shiftcover/platform';
import { createTestDatabase } from '@shiftcover/platform/testing';
import { perFile } from '@shiftcover/testing';
import { describe, expect, it, vi } from 'vitest';
import { openRuntime } from '../runtime';
import { buildServer } from '../server';
import { PASSWORD, startTestServer, TEST_PASSWORD_COST } from '../testing/http';

// The real scrypt, watched: how many password hashes a request ran.
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});
const hashesDuring = async (request: () => Promise<unknown>) => {
  const before = vi.mocked(crypto.scrypt).mock.calls.length;
  await request();
  return vi.mocked(crypto.scrypt).mock.calls.length - before;
};

const server = perFile(startTestServer);

const TOO_MANY = /^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/;

describe('sign-in throttling over HTTP', () => {
  it('does not believe X-Forwarded-For from a caller that is no trusted proxy', async () => {
    await server.signedIn('staff', { username: 'rotating' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await server.anonymous().post(
        '/api/auth/login',
        { username: 'rotating', password: `guess-${i}` },
        {
          'x-forwarded-for': `203.0.113.${i}`,
        },
      );
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('checks no more of 40 simultaneous wrong guesses than the limit allows', async () => {
    await server.signedIn('staff', { username: 'stormed' });
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        server.anonymous().post('/api/auth/login', { username: 'stormed', password: `guess-${i}` }),
      ),
    );
    expect(replies.filter((r) => r.status === 401)).toHaveLength(5);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(35);
    for (const reply of refused) {
      expect(reply.body.message).toMatch(TOO_MANY);
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('limits wrong current passwords when changing one’s password', async () => {
    const user = await server.signedIn('staff', { username: 'changer' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await user.post('/api/auth/change-password', {
        currentPassword: `guess-${i}`,
        newPassword: 'another-one',
      });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const right = await user.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'another-one',
    });
    expect(right.status).toBe(429);
  });
});

describe('password hashes from before the cost was raised', () => {
  it('still sign in, and the sign-in stores the password hashed at today’s cost', async () => {
    const salt = crypto.randomBytes(16);
    const key = crypto.scryptSync('legacy-pass', salt, 64, {
      N: 2 ** 15,
      r: 8,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    });
    const legacy = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    const userId = crypto.randomUUID();
    await createCommandService(server.runtime.handler, server.runtime.vault).users.register(
      {
        userId,
        role: 'staff',
        superAdmin: false,
        emailNotificationsEnabled: true,
        personal: { username: 'oldtimer', firstName: 'Old', lastName: 'Timer', passwordHash: legacy },
      },
      { actor: { kind: 'system', name: 'test' }, now: new Date() },
      { commandId: crypto.randomUUID() },
    );
    const stored = async () => {
      const { state } = await server.runtime.handler.load(streams.user(userId), userDecider);
      return (state as UserState).personal?.passwordHash;
    };
    const login = () =>
      server.anonymous().post('/api/auth/login', { username: 'oldtimer', password: 'legacy-pass' });
    expect((await login()).status).toBe(200);
    // Today's cost is the test server's (production's is checked in platform's password tests).
    expect(await stored()).toMatch(new RegExp(`^scrypt\\$${TEST_PASSWORD_COST}\\$8\\$1\\$`));
    expect(await stored()).not.toBe(legacy);
    expect((await login()).status).toBe(200);
  });
});

describe('what a request costs in password hashing', () => {
  it('a wrong password costs one hash, whether or not the username exists', async () => {
    await server.signedIn('staff', { username: 'existing' });
    const known = () =>
      server.anonymous().post('/api/auth/login', { username: 'existing', password: 'nope' });
    const unknown = () =>
      server.anonymous().post('/api/auth/login', { username: 'nobody-here', password: 'nope' });
    await unknown(); // the first unknown username also makes the stand-in hash
    expect(await hashesDuring(known)).toBe(1);
    expect(await hashesDuring(unknown)).toBe(1);
    expect((await unknown()).body).toEqual((await known()).body);
  });

  it('a refused create or reset is answered before any password is hashed', async () => {
    const staff = await server.signedIn('staff');
    const admin = await server.signedIn('admin');
    const developer = await server.signedIn('developer');
    const form = {
      username: 'never-made',
      password: 'secret1',
      confirmPassword: 'secret1',
      firstName: 'Nev',
      lastName: 'Er',
      role: 'admin',
    };
    let reply: Awaited<ReturnType<typeof staff.post>> | undefined;
    expect(await hashesDuring(async () => (reply = await staff.post('/api/users', form)))).toBe(0);
    expect(reply?.status).toBe(403);
    expect(await hashesDuring(async () => (reply = await admin.post('/api/users', form)))).toBe(0);
    expect(reply).toMatchObject({
      status: 403,
      body: { message: "You don't have permission to create admin accounts" },
    });
    const resetDeveloper = () =>
      admin.put(`/api/users/${developer.userId}/password`, { newPassword: 'another1' });
    expect(await hashesDuring(async () => (reply = await resetDeveloper()))).toBe(0);
    expect(reply?.status).toBe(403);
  });
});

describe('behind a trusted proxy', () => {
  it('counts each forwarded address apart, and lets the holder in while others hammer the account', async () => {
    const db = await createTestDatabase();
    const config = loadConfig({ DATABASE_URL: db.url, TRUST_PROXY: '127.0.0.1' } as NodeJS.ProcessEnv);
    const logger = createLogger('silent');
    const runtime = await openRuntime(config, logger);
    const app = await buildServer(runtime, config, logger, { projector: false, web: false });
    try {
      await createCommandService(runtime.handler, runtime.vault).users.register(
        {
          userId: crypto.randomUUID(),
          role: 'staff',
          superAdmin: false,
          emailNotificationsEnabled: true,
          personal: {
            username: 'besieged',
            firstName: 'Be',
            lastName: 'Sieged',
            passwordHash: await hashPassword(PASSWORD),
          },
        },
        { actor: { kind: 'system', name: 'test' }, now: new Date() },
        { commandId: crypto.randomUUID() },
      );
      const login = (password: string, from: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'x-forwarded-for': from },
          payload: { username: 'besieged', password },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push((await login(`guess-${i}`, `203.0.113.${i % 6}`)).statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual([429, 429]);
      const slowed = await login('guess', '203.0.113.1');
      expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
      expect(slowed.json().message).toMatch(TOO_MANY);
      expect((await login(PASSWORD, '192.0.2.50')).statusCode).toBe(200);
    } finally {
      await app.close();
      await runtime.close();
      await db.drop();
    }
  });
});
