import { claimableStatuses, easternToday } from '@shiftcover/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YearOfShifts } from '../bench/year';
import { type Client, startTestServer, type TestServer } from '../testing/http';

let server: TestServer;
let staff: (Client & { userId: string })[];
let admin: Client & { userId: string };

/** Waits until every read model has reached the head of the log. */
async function readModelsCaughtUp() {
  const head = await server.runtime.store.headPosition();
  for (;;) {
    const [row] = await server.runtime.sql<{ position: bigint }[]>`
      select min(position) as position from projection_checkpoints`;
    if (row && BigInt(row.position) >= head) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Listed = { id: string; date: string; startTime: string };

/** The path of the next page named by a reply's Link header, or undefined on the last page. */
const nextOf = (headers: Headers) => /^<([^>]+)>; rel="next"$/.exec(headers.get('link') ?? '')?.[1];

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signedIn('admin', { superAdmin: true });
  // One residence: three shifts a day, and four days' worth of staff so nobody works two in a row.
  staff = [];
  for (let i = 0; i < 12; i++) staff.push(await server.signedIn('staff'));
  const history = new YearOfShifts(server.runtime.handler, {
    residences: ['Maple House'],
    pastDays: 40,
    upcomingDays: 6,
    staff: staff.map((person) => person.userId),
    adminId: admin.userId,
  });
  await history.fillTo(Number.POSITIVE_INFINITY);
  await readModelsCaughtUp();
}, 120_000);
afterAll(() => server?.close());

describe('reads over a long history', () => {
  it('My Shifts answers the upcoming shifts in order and only the five latest worked', async () => {
    const today = easternToday(new Date());
    for (const person of staff.slice(0, 4)) {
      const held = await server.runtime.sql<
        { id: string; date: string; start_time: string; status: string }[]
      >`
        select id, date, start_time, status from rm_shifts where assigned_user_id = ${person.userId}
        order by date, start_time`;
      const mine = (await person.get('/api/my-shifts')).body as { upcoming: Listed[]; history: Listed[] };
      const past = held.filter((s) => s.date < today);
      expect(past.length).toBeGreaterThan(5);
      expect(mine.history.map((s) => s.id)).toEqual(
        past
          .slice(-5)
          .reverse()
          .map((s) => s.id),
      );
      expect(mine.upcoming.map((s) => s.id)).toEqual(
        held.filter((s) => s.date > today && s.status !== 'completed').map((s) => s.id),
      );
    }
  });

  it('the dashboard counts every shift of the history and the open ones ahead', async () => {
    const { sql } = server.runtime;
    const [counts] = await sql<{ total: number; covered: number; open: number }[]>`
      select count(*) filter (where status <> 'expired')::int as total,
        count(*) filter (where status <> 'expired' and assigned_user_id is not null)::int as covered,
        count(*) filter (where assigned_user_id is null and status in ${sql(claimableStatuses)}
          and date > ${easternToday(new Date())})::int as open
      from rm_shifts`;
    const stats = (await admin.get('/api/dashboard/stats')).body as Record<string, number>;
    expect(stats.coveredShifts).toBe(counts!.covered);
    expect(stats.coveragePercent).toBe(Math.round((counts!.covered / counts!.total) * 100));
    expect(stats.openShifts).toBe(counts!.open);
  });

  it('Shift Management pages through the whole history, 100 at a time, each shift once', async () => {
    const [{ total }] = (await server.runtime
      .sql`select count(*)::int as total from rm_shifts`) as unknown as [{ total: number }];
    const seen: string[] = [];
    let path: string | undefined = '/api/shifts?status=all&limit=100';
    while (path) {
      const page = await admin.get(path);
      const listed = page.body as unknown as Listed[];
      expect(listed.length).toBeLessThanOrEqual(100);
      seen.push(...listed.map((s) => s.id));
      path = nextOf(page.headers);
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('Completed Shifts come in pages in the order asked for, each record once', async () => {
    const [{ total }] = (await server.runtime.sql`
      select count(*)::int as total from rm_completed_shifts where not archived`) as unknown as [
      { total: number },
    ];
    expect(total).toBeGreaterThan(60);
    for (const sort of ['newest', 'duration'] as const) {
      const whole = await admin.get(`/api/completed-shifts?sort=${sort}&limit=1000`);
      expect(whole.headers.get('link')).toBeNull();
      const seen: string[] = [];
      let path: string | undefined = `/api/completed-shifts?sort=${sort}&limit=30`;
      while (path) {
        const page = await admin.get(path);
        expect(page.status).toBe(200);
        const listed = page.body as unknown as Listed[];
        expect(listed.length).toBeLessThanOrEqual(30);
        seen.push(...listed.map((s) => s.id));
        path = nextOf(page.headers);
      }
      expect(seen).toEqual((whole.body as unknown as Listed[]).map((s) => s.id));
      expect(seen).toHaveLength(total);
    }
    const refused = await admin.get('/api/completed-shifts?cursor=abc');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('cursor is not one this server gave');
  });
});
