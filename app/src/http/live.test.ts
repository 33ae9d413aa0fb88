import { perFile } from '@shiftcover/testing';
import { describe, expect, it } from 'vitest';
import { type Client, PASSWORD, startTestServer } from '../testing/http';
import { aShiftForm, inDays } from '../testing/shift-form';

const server = perFile(() => startTestServer({ liveLimits: { perUser: 2, total: 4 } }));
// Sessions idle out after 2 s here, and open streams are checked for that every 100 ms.
const expiring = perFile(() => startTestServer({ idleSessionMs: 2_000, liveSessionSweepMs: 100 }));

interface Stream {
  status: number;
  body: Record<string, unknown>;
  /** Resolves with 'ended' once the server ends the stream. */
  ended: Promise<'ended'>;
  close(): void;
}

/** Opens GET /api/live as the client, like a browser tab's EventSource. */
async function open(who: Client, on = server): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${on.baseUrl}/api/live`, {
    headers: { cookie: who.cookie, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (response.status !== 200) {
    return {
      status: response.status,
      body: await response.json(),
      ended: Promise.resolve('ended'),
      close: () => {},
    };
  }
  const reader = response.body!.getReader();
  const ended = (async () => {
    try {
      while (!(await reader.read()).done) {}
    } catch {
      // Closed from this side.
    }
    return 'ended' as const;
  })();
  return { status: 200, body: {}, ended, close: () => abort.abort() };
}

/** Opens GET /api/live as the client and keeps the views of each change notice it hears, in order. */
async function listen(who: Client) {
  const abort = new AbortController();
  const response = await fetch(`${server.baseUrl}/api/live`, {
    headers: { cookie: who.cookie, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const heard: string[][] = [];
  const shifts: string[] = [];
  const reader = response.body!.getReader();
  void (async () => {
    let text = '';
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        text += new TextDecoder().decode(read.value);
        for (const [, data] of text.matchAll(/event: change\ndata: (.*)\n\n/g)) {
          const notice = JSON.parse(data!);
          heard.push(notice.views);
          shifts.push(...notice.shifts);
        }
        text = text.slice(text.lastIndexOf('\n\n') + 2);
      }
    } catch {
      // Closed from this side.
    }
  })();
  /** Resolves once a notice passes `test`, with every notice heard until then; rejects after 10 s. */
  const until = async (test: (views: string[], index: number) => boolean) => {
    for (const started = Date.now(); Date.now() - started < 10_000; ) {
      const at = heard.findIndex(test);
      if (at >= 0) return heard.slice(0, at + 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no such notice among ${JSON.stringify(heard)}`);
  };
  return { heard, shifts, until, close: () => abort.abort() };
}

/** 'ended' when the stream ends within 10 s, else 'open'. */
const within = (stream: Stream, ms = 10_000) =>
  Promise.race([stream.ended, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);

describe('live-update streams', () => {
  it('are capped per user: one more is refused with 429, and a closed one frees its place', async () => {
    const staff = await server.signedIn('staff');
    const first = await open(staff);
    const second = await open(staff);
    const third = await open(staff);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 429]);
    expect(third.body.message).toMatch(/live connections open/);
    first.close();
    await first.ended;
    let again = await open(staff);
    for (let i = 0; again.status === 429 && i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await open(staff);
    }
    expect(again.status).toBe(200);
    second.close();
    again.close();
  });

  it('are capped in all', async () => {
    const people = await Promise.all([1, 2, 3].map(() => server.signedIn('staff')));
    const streams = [
      await open(people[0]!),
      await open(people[0]!),
      await open(people[1]!),
      await open(people[1]!),
    ];
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    const refused = await open(people[2]!);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many live connections right now. Please try again in a moment.');
    for (const stream of streams) stream.close();
    await Promise.all(streams.map((s) => s.ended));
  });

  it('end when their session signs out, and only that session’s', async () => {
    const staff = await server.signedIn('staff', { username: 'two-devices' });
    const elsewhere = server.anonymous();
    await elsewhere.post('/api/auth/login', { username: 'two-devices', password: PASSWORD });
    const here = await open(staff);
    const there = await open(elsewhere);
    expect(await staff.post('/api/auth/logout')).toMatchObject({ status: 200 });
    expect(await within(here)).toBe('ended');
    expect(await within(there, 300)).toBe('open');
    there.close();
  });

  it('end when their user is deleted, and the user cannot open another', async () => {
    const admin = await server.signedIn('admin');
    const staff = await server.signedIn('staff');
    const cookie = staff.cookie;
    const stream = await open(staff);
    expect((await admin.delete(`/api/users/${staff.userId}`)).status).toBe(200);
    expect(await within(stream)).toBe('ended');
    staff.cookie = cookie;
    expect((await open(staff)).status).toBe(401);
  });

  it('end when their session expires, with no request in between', async () => {
    const staff = await expiring.signedIn('staff');
    const stream = await open(staff, expiring);
    expect(await within(stream, 1_000)).toBe('open');
    expect(await within(stream)).toBe('ended');
  });

  it('tell a person their bell has news only when they have a notification', async () => {
    const admin = await server.signedIn('admin', { superAdmin: true });
    const claimant = await server.signedIn('staff');
    const colleague = await server.signedIn('staff');
    const [mine, theirs] = [await listen(claimant), await listen(colleague)];
    const bell = (views: string[]) => views.includes('notifications');
    await admin.post('/api/residences', { name: 'Maple House' });
    const shiftId = (
      await admin.post('/api/shifts', aShiftForm({ location: 'Maple House', date: inDays(3) }))
    ).body.id as string;
    // The posting is news for every staff member.
    const posted = [(await mine.until(bell)).length, (await theirs.until(bell)).length];
    expect((await claimant.post(`/api/shifts/${shiftId}/claim`)).status).toBe(200);
    expect((await admin.post(`/api/shifts/${shiftId}/approve`)).status).toBe(200);
    // The approval only for the claimant; a residence added after it marks the end of what it told.
    await admin.post('/api/residences', { name: 'Oak Lodge' });
    const since = async (stream: typeof mine, from: number) =>
      (await stream.until((views, index) => index >= from && views.includes('residences'))).slice(from);
    const [toClaimant, toColleague] = [await since(mine, posted[0]!), await since(theirs, posted[1]!)];
    expect(toClaimant.filter(bell)).toHaveLength(1);
    expect(toClaimant.flat()).toContain('my-shifts');
    expect(toColleague.flat()).toContain('shifts');
    expect(toColleague.filter(bell)).toHaveLength(0);
    // Each notice names the shifts it was about.
    expect(new Set(theirs.shifts)).toEqual(new Set([shiftId]));
    mine.close();
    theirs.close();
  });

  it('tell a screen once of a burst of changes read together', async () => {
    const admin = await server.signedIn('admin', { superAdmin: true });
    const staff = await server.signedIn('staff');
    const stream = await listen(staff);
    await admin.post('/api/residences', { name: 'Cedar Grove' });
    await stream.until((views) => views.includes('residences'));
    const before = stream.heard.length;
    // Twenty shifts posted at once: far fewer notices than shifts, each naming what they changed.
    const posted = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        admin.post('/api/shifts', aShiftForm({ location: 'Cedar Grove', date: inDays(4 + i) })),
      ),
    );
    expect(posted.map((reply) => reply.status)).toEqual(Array(20).fill(201));
    await admin.post('/api/residences', { name: 'Birch House' });
    const heard = (
      await stream.until((views, index) => index >= before && views.includes('residences'))
    ).slice(before);
    expect(heard.length).toBeLessThan(20);
    expect(heard.flat()).toEqual(expect.arrayContaining(['shifts', 'notifications', 'residences']));
    stream.close();
  });
});
