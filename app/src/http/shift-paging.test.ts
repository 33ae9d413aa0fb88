import { easternToday } from '@shiftcover/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../testing/http';

let server: TestServer;
let admin: Client;
let staff: Client;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signedIn('admin');
  staff = await server.signedIn('staff');
});
afterAll(() => server.close());

const DAY_MS = 86_400_000;

const hhmm = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * A 4-hour shift on the Eastern day `days` days from now, starting at 08:00 plus `hour` hours: the
 * same day whatever the time the test runs at.
 */
function slot(days: number, hour = 0) {
  const date = easternToday(new Date(Date.now() + days * DAY_MS));
  return { date, startTime: hhmm(8 + hour), endTime: hhmm(12 + hour) };
}

async function post(when: ReturnType<typeof slot>, priority = 'open'): Promise<string> {
  const reply = await admin.post('/api/shifts', { location: 'Maple House', type: 'AM', priority, ...when });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

const ids = (body: unknown) => (body as Array<{ id: string }>).map((shift) => shift.id);

/** The `next` page named by a reply's Link header, as a path, or undefined on the last page. */
function nextOf(headers: Headers): string | undefined {
  const link = headers.get('link');
  if (!link) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, link).not.toBeNull();
  return match![1];
}

describe('GET /api/shifts in windows and pages', () => {
  it('keeps the shifts dated between from and to, both days included', async () => {
    const [before, first, last, after] = [slot(50), slot(51), slot(53), slot(54)];
    const mine = { before: await post(before), first: await post(first), last: await post(last) };
    const late = await post(after);
    const reply = await admin.get(`/api/shifts?status=all&from=${first.date}&to=${last.date}`);
    expect(reply.status).toBe(200);
    const listed = ids(reply.body);
    expect(listed).toContain(mine.first);
    expect(listed).toContain(mine.last);
    expect(listed).not.toContain(mine.before);
    expect(listed).not.toContain(late);
    expect(reply.headers.get('link')).toBeNull();
    const oneDay = await admin.get(`/api/shifts?status=all&from=${first.date}&to=${first.date}`);
    expect(ids(oneDay.body)).toEqual([mine.first]);
  });

  it('staff get the same window over what they may see', async () => {
    const when = slot(60);
    const id = await post(when);
    const reply = await staff.get(`/api/shifts?from=${when.date}&to=${when.date}`);
    expect(ids(reply.body)).toEqual([id]);
  });

  it('pages follow the list order and give every shift exactly once, even while shifts are posted', async () => {
    const window = { from: slot(70).date, to: slot(72).date };
    const posted: string[] = [];
    for (const [days, hour, priority] of [
      [70, 0, 'open'],
      [70, 1, 'urgent'],
      [70, 2, 'open'],
      [71, 0, 'emergency'],
      [71, 1, 'open'],
      [71, 2, 'open'],
      [72, 0, 'urgent'],
      [72, 1, 'open'],
    ] as const) {
      posted.push(await post(slot(days, hour), priority));
    }
    const whole = await admin.get(`/api/shifts?status=all&from=${window.from}&to=${window.to}`);
    const order = ids(whole.body);
    expect(new Set(order)).toEqual(new Set(posted));

    const seen: string[] = [];
    const added: string[] = [];
    let path: string | undefined = `/api/shifts?status=all&from=${window.from}&to=${window.to}&limit=3`;
    while (path) {
      const page = await admin.get(path);
      expect(page.status).toBe(200);
      expect(ids(page.body).length).toBeLessThanOrEqual(3);
      seen.push(...ids(page.body));
      path = nextOf(page.headers);
      // A shift posted between two pages, at either end of the order, moves nothing.
      if (path && added.length < 2) {
        added.push(await post(slot(70 + added.length * 2, 3), added.length === 0 ? 'emergency' : 'open'));
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => posted.includes(id))).toEqual(order);
    expect(seen.every((id) => posted.includes(id) || added.includes(id))).toBe(true);
  });

  it('keeps the other query parameters in the next link', async () => {
    const days = 80;
    for (let hour = 0; hour < 3; hour++) await post(slot(days, hour));
    const date = slot(days).date;
    const reply = await admin.get(
      `/api/shifts?status=all&location=Maple%20House&from=${date}&to=${date}&limit=2`,
    );
    const next = new URL(nextOf(reply.headers)!, 'http://server');
    expect(next.pathname).toBe('/api/shifts');
    expect(Object.fromEntries(next.searchParams)).toMatchObject({
      status: 'all',
      location: 'Maple House',
      from: date,
      to: date,
      limit: '2',
    });
    const rest = await admin.get(`${next.pathname}${next.search}`);
    expect(ids(rest.body)).toHaveLength(1);
    expect(nextOf(rest.headers)).toBeUndefined();
    // Every page counts the whole list the filters keep, for a screen that holds its first page only.
    for (const page of [reply, rest]) expect(page.headers.get('x-total-count')).toBe('3');
    const urgent = await admin.get(
      `/api/shifts?status=urgent&location=Maple%20House&from=${date}&to=${date}`,
    );
    expect(urgent.headers.get('x-total-count')).toBe('0');
  });

  it('counts for staff only the shifts they may see', async () => {
    const when = slot(82);
    const open = await post(when);
    const taken = await post(slot(82, 1));
    const other = await server.signedIn('staff');
    expect((await other.post(`/api/shifts/${taken}/claim`)).status).toBe(200);
    const reply = await staff.get(`/api/shifts?status=all&from=${when.date}&to=${when.date}&limit=1`);
    expect(ids(reply.body)).toEqual([open]);
    expect(reply.headers.get('x-total-count')).toBe('1');
    expect(
      (await admin.get(`/api/shifts?status=all&from=${when.date}&to=${when.date}&limit=1`)).headers.get(
        'x-total-count',
      ),
    ).toBe('2');
  });

  it('without paging parameters answers at most 500 shifts and links to the rest', async () => {
    const when = slot(90);
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = worker; i < 505; i += 4) await post(when);
      }),
    );
    const first = await admin.get('/api/shifts?status=all');
    expect(first.status).toBe(200);
    expect(ids(first.body)).toHaveLength(500);
    const next = nextOf(first.headers);
    expect(next).toMatch(/[?&]limit=500(&|$)/);
    const rest = await admin.get(next!);
    const all = [...ids(first.body), ...ids(rest.body)];
    expect(new Set(all).size).toBe(all.length);
    expect(nextOf(rest.headers)).toBeUndefined();
  });

  it('pages Pending Approvals the same way, and windows them', async () => {
    const date = slot(100).date;
    const claimed: string[] = [];
    // Each claimed by someone else: one person could not rest enough between them.
    for (const [startTime, endTime] of [
      ['06:00', '10:00'],
      ['11:00', '15:00'],
      ['16:00', '20:00'],
    ] as const) {
      const id = await post({ date, startTime, endTime });
      const claimant = await server.signedIn('staff');
      const claim = await claimant.post(`/api/shifts/${id}/claim`);
      expect(claim.status, JSON.stringify(claim.body)).toBe(200);
      claimed.push(id);
    }
    const whole = await admin.get(`/api/shifts/pending?from=${date}&to=${date}`);
    expect(new Set(ids(whole.body))).toEqual(new Set(claimed));
    const first = await admin.get(`/api/shifts/pending?from=${date}&to=${date}&limit=2`);
    const rest = await admin.get(nextOf(first.headers)!);
    expect([...ids(first.body), ...ids(rest.body)]).toEqual(ids(whole.body));
    expect(nextOf(rest.headers)).toBeUndefined();
    // Every page counts the claims of the whole list, for the screen that shows the first only.
    for (const page of [whole, first, rest]) expect(page.headers.get('x-total-count')).toBe('3');
    const dayAfter = slot(101).date;
    const none = await admin.get(`/api/shifts/pending?from=${dayAfter}&to=${dayAfter}`);
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
    expect((await admin.get('/api/shifts/pending?limit=0')).body.message).toBe(
      'limit must be between 1 and 1000',
    );
  });

  it.each([
    ['limit=0', 'limit must be between 1 and 1000'],
    ['limit=1001', 'limit must be between 1 and 1000'],
    ['limit=ten', 'limit must be a number'],
    ['limit=2.5', 'limit must be a whole number'],
    ['cursor=not%20a%20cursor', 'cursor is not one this server gave'],
    [`cursor=${Buffer.from('[1,2]').toString('base64url')}`, 'cursor is not one this server gave'],
    ['cursor=bm90IGpzb24', 'cursor is not one this server gave'],
    ['from=2026-13-01', 'from is not a real date'],
    ['to=tomorrow', 'to is a date written YYYY-MM-DD'],
    ['from=2026-05-02&to=2026-05-01', 'from must not be after to'],
  ])('refuses %s with 400 and a message', async (query, message) => {
    const reply = await admin.get(`/api/shifts?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(message);
  });
});
