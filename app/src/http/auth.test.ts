import { perFile } from '@shiftcover/testing';
import { describe, expect, it } from 'vitest';
import { Client, PASSWORD, startTestServer } from '../testing/http';

const server = perFile(startTestServer);

/** The status of `GET /api/auth/user` as `client`, asked again until it is `wanted` or 2 s have passed. */
async function statusWithin2s(client: Client, wanted: number): Promise<number> {
  const deadline = Date.now() + 2_000;
  let status = (await client.get('/api/auth/user')).status;
  while (status !== wanted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = (await client.get('/api/auth/user')).status;
  }
  return status;
}

describe('signing in and out', () => {
  it('answers 401 to a signed-out user and redirects /api/login to the sign-in screen', async () => {
    const anonymous = server.anonymous();
    expect((await anonymous.get('/api/auth/user')).status).toBe(401);
    const redirect = await anonymous.get('/api/login');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/login');
  });

  it('signs in with an httpOnly SameSite cookie and a fresh session id, never a planted one', async () => {
    await server.signedIn('staff', { username: 'rotation' });
    const browser = server.anonymous();
    browser.cookie = 'sid=planted-by-someone-else';
    const response = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: browser.cookie },
      body: JSON.stringify({ username: 'rotation', password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toContain('planted-by-someone-else');
    const body = await response.json();
    expect(body).toMatchObject({ firstName: 'Test', lastName: 'staff', role: 'staff' });
    expect(JSON.stringify(body)).not.toMatch(/scrypt|passwordHash/);
  });

  it('refuses a wrong password with the product guide’s message', async () => {
    await server.signedIn('staff', { username: 'wrongpass' });
    const reply = await server
      .anonymous()
      .post('/api/auth/login', { username: 'wrongpass', password: 'nope' });
    expect(reply).toMatchObject({ status: 401, body: { message: 'Invalid username or password' } });
    const empty = await server.anonymous().post('/api/auth/login', { username: '', password: '' });
    expect(empty).toMatchObject({ status: 400, body: { message: 'Username is required' } });
  });

  it('logs out: the session is destroyed on the server, not just forgotten by the browser', async () => {
    const client = await server.signedIn('staff');
    const stolen = client.cookie;
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    const thief = new Client(server.baseUrl);
    thief.cookie = stolen;
    expect((await thief.get('/api/auth/user')).status).toBe(401);
  });

  it('expires an idle session', async () => {
    const client = await server.signedIn('staff');
    expect((await client.get('/api/auth/user')).status).toBe(200);
    await server.runtime.sql`update sessions set expire = now() - interval '1 second'`;
    // Every process hears of it on the sessions' channel within moments.
    expect(await statusWithin2s(client, 401)).toBe(401);
  });

  it('a session ended by another process stops opening requests within moments', async () => {
    const client = await server.signedIn('staff');
    // Kept in memory after this read, as sessions are between their touches.
    expect((await client.get('/api/auth/user')).status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(200);
    await server.runtime.sql`delete from sessions where sess->>'userId' = ${client.userId}`;
    expect(await statusWithin2s(client, 401)).toBe(401);
  });

  it('changing one’s password ends one’s other sessions but keeps this one', async () => {
    const laptop = await server.signedIn('staff', { username: 'twodevices' });
    const phone = new Client(server.baseUrl);
    await phone.post('/api/auth/login', { username: 'twodevices', password: PASSWORD });
    const wrong = await laptop.post('/api/auth/change-password', {
      currentPassword: 'nope',
      newPassword: 'another-one',
    });
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Current password is incorrect' } });
    const short = await laptop.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: '123',
    });
    expect(short).toMatchObject({ status: 400, body: { message: 'Password must be at least 6 characters' } });
    const changed = await laptop.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'another-one',
    });
    expect(changed.status).toBe(200);
    expect((await laptop.get('/api/auth/user')).status).toBe(200);
    expect((await phone.get('/api/auth/user')).status).toBe(401);
    const relogin = await server
      .anonymous()
      .post('/api/auth/login', { username: 'twodevices', password: 'another-one' });
    expect(relogin.status).toBe(200);
  });

  it('deleting a user ends their sessions', async () => {
    const admin = await server.signedIn('admin');
    const staff = await server.signedIn('staff');
    expect((await admin.delete(`/api/users/${staff.userId}`)).status).toBe(200);
    expect((await staff.get('/api/auth/user')).status).toBe(401);
  });

  it('throttles repeated failures per username with a clear 429', async () => {
    await server.signedIn('staff', { username: 'targeted' });
    for (let i = 0; i < 5; i++) {
      expect(
        (await server.anonymous().post('/api/auth/login', { username: 'targeted', password: `guess-${i}` }))
          .status,
      ).toBe(401);
    }
    const blocked = await server
      .anonymous()
      .post('/api/auth/login', { username: 'targeted', password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/);
  });
});

describe('browser protections', () => {
  it('refuses state-changing requests from another site', async () => {
    const admin = await server.signedIn('admin');
    const foreign = await admin.post('/api/shifts', {}, { origin: 'https://evil.example' });
    expect(foreign).toMatchObject({ status: 403, body: { message: 'Cross-origin request refused' } });
    const crossSite = await admin.post('/api/shifts', {}, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const sameOrigin = await admin.post('/api/shifts', {}, { origin: server.baseUrl });
    expect(sameOrigin.status).toBe(400);
  });

  it('sends security headers on every response', async () => {
    const reply = await server.anonymous().get('/api/auth/user');
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(reply.headers.get('x-frame-options')).toBeTruthy();
    for (const answer of [reply, await server.anonymous().get('/api/no-such-route')]) {
      expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
      expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('documents every route as OpenAPI at /api/docs', async () => {
    const reply = await server.anonymous().get('/api/docs/json');
    expect(reply.status).toBe(200);
    const paths = Object.keys((reply.body as { paths: Record<string, unknown> }).paths);
    for (const path of [
      '/api/auth/login',
      '/api/shifts/{id}/claim',
      '/api/transfer-requests/{id}',
      '/api/users/{id}/assign-residence',
    ]) {
      expect(paths).toContain(path);
    }
    expect((await server.anonymous().get('/api/docs')).status).toBeLessThan(400);
  });
});
