import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, easternSlot, startTestServer } from '../testing/http';

type Signed = Client & { userId: string };
let clockOffsetMs = 0;
const server = perFile(() => startTestServer({ clock: () => new Date(Date.now() + clockOffsetMs) }));
let admin: Signed;
let otherAdmin: Signed;
let staff: Signed;

beforeAll(async () => {
  admin = await server.signedIn('admin');
  otherAdmin = await server.signedIn('admin');
  staff = await server.signedIn('staff');
});

/** A shift `hoursFromNow` hours from now (by the server's clock), in Eastern wall-clock terms. */
function slot(hoursFromNow: number, hours = 4) {
  return easternSlot(new Date(Date.now() + clockOffsetMs + hoursFromNow * 3_600_000), hours);
}

async function post(when = slot(72)): Promise<{ id: string; position: string }> {
  const reply = await admin.post('/api/shifts', { location: 'Maple House', type: 'AM', ...when });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { id: reply.body.id as string, position: reply.body.position! };
}

/** GET /api/shifts as `who`, naming a position to wait for when given, and nothing else. */
async function list(who: Client, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/api/shifts`, {
    headers: { cookie: who.cookie, ...headers },
  });
  const text = await response.text();
  return {
    response,
    shifts: (text ? JSON.parse(text) : []) as Array<{ id: string; assignedUserId: string | null }>,
  };
}

describe('GET /api/shifts served from finished bodies', () => {
  it('after a write, a read naming its position always includes it, for the writer and for others', async () => {
    for (let i = 0; i < 15; i++) {
      await list(admin);
      await list(otherAdmin);
      await list(staff);
      const { id, position } = await post();
      for (const who of [admin, otherAdmin, staff]) {
        const { shifts } = await list(who, { 'x-min-position': position });
        expect(shifts.map((s) => s.id)).toContain(id);
      }
    }
  });

  it('concurrent writers each see their own write at once', async () => {
    await list(admin);
    const seen = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const { id, position } = await post();
        const { shifts } = await list(admin, { 'x-min-position': position });
        return shifts.some((s) => s.id === id);
      }),
    );
    expect(seen).toEqual(seen.map(() => true));
  });

  it('a claim shows as the claimant’s on their next read, and once seen never goes back', async () => {
    const { id } = await post();
    await list(staff);
    const claim = await staff.post(`/api/shifts/${id}/claim`);
    expect(claim.status).toBe(200);
    const { shifts } = await list(staff, { 'x-min-position': claim.body.position! });
    expect(shifts.find((s) => s.id === id)?.assignedUserId).toBe(staff.userId);
    for (let i = 0; i < 5; i++) {
      expect((await list(staff)).shifts.find((s) => s.id === id)?.assignedUserId).toBe(staff.userId);
    }
  });

  it('keeps one list of the open shifts for every staff member, and each one’s own list apart', async () => {
    const colleague = await server.signedIn('staff');
    type Listed = Array<{ id: string; notes: string | null }>;
    const read = async (who: Client, query: string) =>
      (await (
        await fetch(`${server.baseUrl}/api/shifts${query}`, { headers: { cookie: who.cookie } })
      ).json()) as Listed;
    const { sql } = server.runtime;
    let shared = false;
    // Each try on a shift of its own, once the posting's own outreach has had time to land: were the
    // read model to move between the two reads, the second would rightly be read afresh.
    for (let attempt = 0; attempt < 5 && !shared; attempt++) {
      const { id, position } = await post();
      await list(staff, { 'x-min-position': position });
      await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
      const notesOf = (shifts: Listed) => shifts.find((s) => s.id === id)?.notes;
      expect(notesOf(await read(staff, '?status=open&limit=100'))).toBe(null);
      // A change the read model's marks do not show, made behind the server's back: only an
      // answer read afresh can see it.
      await sql`update rm_shifts set notes = 'Seen only when read afresh' where id = ${id}`;
      try {
        shared = notesOf(await read(colleague, '?status=open&limit=100')) === null;
        if (shared) expect(notesOf(await read(colleague, '?limit=100'))).toBe('Seen only when read afresh');
      } finally {
        await sql`update rm_shifts set notes = null where id = ${id}`;
      }
    }
    expect(shared).toBe(true);
  });

  it('drops a shift from staff’s list once it has ended, with no write in between', async () => {
    const { id, position } = await post(slot(1, 1));
    expect((await list(staff, { 'x-min-position': position })).shifts.map((s) => s.id)).toContain(id);
    clockOffsetMs = 2.5 * 3_600_000;
    try {
      expect((await list(staff)).shifts.map((s) => s.id)).not.toContain(id);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('answers 304 to the ETag it gave while nothing changed, and 200 after a change', async () => {
    const first = await list(admin);
    const etag = first.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.response.headers.get('cache-control')).toBe('private, no-cache');
    const again = await list(admin, { 'if-none-match': etag });
    expect(again.response.status).toBe(304);
    const { position } = await post();
    const changed = await list(admin, { 'if-none-match': etag, 'x-min-position': position });
    expect(changed.response.status).toBe(200);
    expect(changed.response.headers.get('etag')).not.toBe(etag);
  });

  it('sends gzip to clients that accept it and plain JSON to others, with the same content', async () => {
    const zipped = await list(admin, { 'accept-encoding': 'gzip' });
    expect(zipped.response.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.response.headers.get('vary')).toContain('accept-encoding');
    const plain = await list(admin, { 'accept-encoding': 'identity' });
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    expect(plain.shifts).toEqual(zipped.shifts);
    expect(plain.response.headers.get('etag')).not.toBe(zipped.response.headers.get('etag'));
    const refused = await list(admin, { 'accept-encoding': 'gzip;q=0' });
    expect(refused.response.headers.get('content-encoding')).toBeNull();
  });

  it('is still for signed-in users only', async () => {
    expect((await list(new Client(server.baseUrl))).response.status).toBe(401);
  });
});

/** GET /api/my-shifts as `who`, naming a position to wait for when given. */
async function mine(who: Client, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/api/my-shifts`, {
    headers: { cookie: who.cookie, ...headers },
  });
  const text = await response.text();
  return {
    response,
    view: (text ? JSON.parse(text) : { upcoming: [], history: [] }) as {
      upcoming: Array<{ id: string }>;
      history: Array<{ id: string }>;
    },
  };
}

describe('GET /api/my-shifts served from finished bodies', () => {
  it('shows each person their own shifts, a new one on the read naming its position, 304 while unchanged', async () => {
    const other = await server.signedIn('staff');
    const { id } = await post(slot(300));
    const before = await mine(staff);
    const etag = before.response.headers.get('etag')!;
    expect((await mine(staff, { 'if-none-match': etag })).response.status).toBe(304);
    const claim = await staff.post(`/api/shifts/${id}/claim`);
    const approved = await admin.post(`/api/shifts/${id}/approve`);
    expect([claim.status, approved.status]).toEqual([200, 200]);
    const after = await mine(staff, { 'if-none-match': etag, 'x-min-position': approved.body.position! });
    expect(after.response.status).toBe(200);
    expect(after.view.upcoming.map((s) => s.id)).toContain(id);
    // Another person reading at the same moment gets their own answer, not the first one's.
    expect((await mine(other)).view.upcoming.map((s) => s.id)).not.toContain(id);
  });

  it('shows a shift as worked once it has ended, with no write in between', async () => {
    const { id } = await post(slot(1, 1));
    const claim = await staff.post(`/api/shifts/${id}/claim`);
    const approved = await admin.post(`/api/shifts/${id}/approve`);
    expect([claim.status, approved.status], JSON.stringify([claim.body, approved.body])).toEqual([200, 200]);
    const now = await mine(staff, { 'x-min-position': approved.body.position! });
    expect(now.view.upcoming.map((s) => s.id)).toContain(id);
    expect(now.view.history.map((s) => s.id)).not.toContain(id);
    clockOffsetMs = 2.5 * 3_600_000;
    try {
      expect((await mine(staff)).view.history.map((s) => s.id)).toContain(id);
    } finally {
      clockOffsetMs = 0;
    }
  });
});
