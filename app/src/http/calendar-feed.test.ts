import {
  calendarFeedStatusViewSchema,
  calendarFeedViewSchema,
  easternInstant,
  shiftInterval,
} from '@shiftcover/domain';
import { perFile, until } from '@shiftcover/testing';
import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer } from '../testing/http';
import { aShiftForm } from '../testing/shift-form';

const PUBLIC_URL = 'https://shifts.example.org';
// Before both of 2026's changes of clocks, so the nights they fall on are still to come.
const clock = easternInstant('2026-03-01', '09:00');
const server = perFile(() => startTestServer({ clock: () => clock, env: { PUBLIC_URL } }));

let admin: Client & { userId: string };
let alex: Client & { userId: string };
let blake: Client & { userId: string };
const shifts: Record<string, string> = {};

async function post(date: string, startTime: string, endTime: string, notes: string) {
  const type = endTime <= startTime ? 'Overnight' : 'AM';
  const reply = await admin.post('/api/shifts', aShiftForm({ date, startTime, endTime, type, notes }));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

async function holds(who: Client, shiftId: string, approve = true) {
  expect((await who.post(`/api/shifts/${shiftId}/claim`)).status).toBe(200);
  if (approve) expect((await admin.post(`/api/shifts/${shiftId}/approve`)).status).toBe(200);
}

/** Makes a feed; its address, moved from the public origin onto the test server. */
async function feedOf(who: Client): Promise<string> {
  const made = await who.post('/api/calendar-feed');
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(calendarFeedViewSchema.safeParse(made.body).error).toBeUndefined();
  const url = made.body.url as string;
  expect(url).toMatch(/^https:\/\/shifts\.example\.org\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  return url.replace(PUBLIC_URL, server.baseUrl);
}

/** The feed as a calendar app reads it: no cookie, no read-your-writes header. */
const poll = (url: string) => fetch(url);

async function eventsOf(url: string) {
  const reply = await poll(url);
  expect(reply.status).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(await reply.text()));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return new Map(
    calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent);
      return [event.uid.replace(/@shift-coverage$/, ''), event] as const;
    }),
  );
}

beforeAll(async () => {
  admin = await server.signedIn('admin', { superAdmin: true });
  alex = await server.signedIn('staff');
  blake = await server.signedIn('staff');
  expect((await admin.post('/api/residences', { name: 'Maple House', address: '1 Maple Road' })).status).toBe(
    201,
  );
  shifts.springNight = await post('2026-03-07', '22:00', '06:00', 'Spring night');
  shifts.fallNight = await post('2026-10-31', '22:00', '06:00', 'Fall night');
  shifts.edited = await post('2026-03-10', '08:00', '16:00', 'To be moved');
  shifts.dropped = await post('2026-03-12', '08:00', '16:00', 'To be dropped');
  shifts.handedOver = await post('2026-03-16', '08:00', '16:00', 'To be handed over');
  shifts.pending = await post('2026-03-18', '08:00', '16:00', 'Claim not approved');
  shifts.blakes = await post('2026-03-20', '08:00', '16:00', "Blake's own");
  for (const name of ['springNight', 'fallNight', 'edited', 'dropped', 'handedOver'])
    await holds(alex, shifts[name]!);
  await holds(alex, shifts.pending!, false);
  await holds(blake, shifts.blakes!);
});

describe('making and revoking a calendar feed', () => {
  it('hands out a private address, replaced by the next one made; old and revoked addresses answer 404', async () => {
    expect((await alex.get('/api/calendar-feed')).body).toMatchObject({ active: false, createdAt: null });
    expect((await server.anonymous().post('/api/calendar-feed')).status).toBe(401);

    const first = await feedOf(alex);
    await until(async () => (await poll(first)).status === 200, 5_000, 'the feed is served');
    const answer = await poll(first);
    expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('private, max-age=60');
    const status = (await alex.get('/api/calendar-feed')).body;
    expect(calendarFeedStatusViewSchema.safeParse(status).error).toBeUndefined();
    expect(status).toMatchObject({ active: true });

    const second = await feedOf(alex);
    expect(second).not.toBe(first);
    await until(async () => (await poll(first)).status === 404, 5_000, 'the first address ends');
    expect(await (await poll(first)).json()).toEqual({ message: 'Calendar feed not found' });
    expect((await poll(second)).status).toBe(200);

    const revoked = await alex.delete('/api/calendar-feed');
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe('Calendar feed revoked');
    await until(async () => (await poll(second)).status === 404, 5_000, 'the revoked address ends');
    const again = await alex.delete('/api/calendar-feed');
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('You have no calendar feed to revoke');
    expect((await alex.get('/api/calendar-feed')).body).toMatchObject({ active: false });
  });

  it('answers 404, never anything else, to unknown addresses and malformed tokens', async () => {
    const unknown = `${'A'.repeat(42)}Q`;
    const files = [
      `${unknown}.ics`,
      unknown,
      `${unknown}.ics.ics`,
      'abc.ics',
      '.ics',
      `${'A'.repeat(44)}.ics`,
      `${'é'.repeat(43)}.ics`,
      '%00.ics',
      '..%2F..%2Fetc%2Fpasswd.ics',
      `${'x'.repeat(90)}.ics`,
      `${unknown}%0D%0A.ics`,
    ];
    for (const file of files) {
      const reply = await poll(`${server.baseUrl}/api/calendar/${file}`);
      expect(reply.status, file).toBe(404);
      expect(await reply.json(), file).toEqual({ message: 'Calendar feed not found' });
    }
    // Past 100 characters the router reads no path segment at all, feed or not: no route answers,
    // a 404 or a 414 as the router's table has it, never the feed and never a failure.
    const tooLong = await poll(`${server.baseUrl}/api/calendar/${'x'.repeat(4000)}.ics`);
    expect([404, 414]).toContain(tooLong.status);
    expect(((await tooLong.json()) as { message?: string }).message).toBeTruthy();
  });
});

describe('what a feed shows', () => {
  let alexFeed: string;
  let blakeFeed: string;
  beforeAll(async () => {
    alexFeed = await feedOf(alex);
    blakeFeed = await feedOf(blake);
    await until(async () => (await poll(blakeFeed)).status === 200, 5_000, 'the feeds are served');
  });

  it("shows the person's approved shifts only, overnight and DST nights in Eastern time at their real length", async () => {
    const events = await eventsOf(alexFeed);
    expect([...events.keys()].sort()).toEqual(
      [shifts.springNight, shifts.fallNight, shifts.edited, shifts.dropped, shifts.handedOver].sort(),
    );
    const text = await (await poll(alexFeed)).text();
    expect(text).toContain('DTSTART;TZID=America/New_York:20260307T220000');
    expect(text).toContain('DTEND;TZID=America/New_York:20260308T060000');
    for (const [name, date, endDate, hours] of [
      ['springNight', '2026-03-07', '2026-03-08', 7],
      ['fallNight', '2026-10-31', '2026-11-01', 9],
    ] as const) {
      const event = events.get(shifts[name]!)!;
      const { start, end } = shiftInterval(date, '22:00', '06:00');
      expect(event.startDate.toJSDate()).toEqual(start);
      expect(event.endDate.toJSDate()).toEqual(end);
      expect((end.getTime() - start.getTime()) / 3_600_000).toBe(hours);
      expect(event.startDate.zone?.tzid).toBe('America/New_York');
      expect(event.endDate.toString()).toBe(`${endDate}T06:00:00`);
      expect(event.summary).toBe('Overnight shift at Maple House');
      expect(event.location).toBe('Maple House, 1 Maple Road');
      expect(event.sequence).toBe(0);
    }
    expect([...(await eventsOf(blakeFeed)).keys()]).toEqual([shifts.blakes]);
  });

  it('raises SEQUENCE when a shift is edited, and drops a shift dropped or handed over at the next poll', async () => {
    const moved = await admin.put(
      `/api/shifts/${shifts.edited}`,
      aShiftForm({ date: '2026-03-10', startTime: '09:00', endTime: '17:00', notes: 'Moved' }),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await until(
      async () => (await eventsOf(alexFeed)).get(shifts.edited!)?.sequence === 1,
      5_000,
      'the edit',
    );
    const edited = (await eventsOf(alexFeed)).get(shifts.edited!)!;
    expect(edited.startDate.toJSDate()).toEqual(easternInstant('2026-03-10', '09:00'));
    expect(edited.description).toContain('Notes: Moved');

    expect((await alex.post(`/api/shifts/${shifts.dropped}/request-drop`)).status).toBe(200);
    expect((await admin.post(`/api/admin/drop-requests/${shifts.dropped}/approve`)).status).toBe(200);
    const offered = await alex.post(`/api/shifts/${shifts.handedOver}/transfer-request`, {
      toUserId: blake.userId,
    });
    expect(offered.status, JSON.stringify(offered.body)).toBe(201);
    const accepted = await blake.patch(`/api/transfer-requests/${offered.body.id}`, { status: 'accepted' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    await until(
      async () => {
        const events = await eventsOf(alexFeed);
        return !events.has(shifts.dropped!) && !events.has(shifts.handedOver!);
      },
      5_000,
      'the dropped and handed-over shifts leave the feed',
    );
    expect([...(await eventsOf(blakeFeed)).keys()].sort()).toEqual([shifts.blakes, shifts.handedOver].sort());
  });
});
