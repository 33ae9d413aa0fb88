import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, easternSlot, startTestServer } from '../testing/http';

type Signed = Client & { userId: string };
const server = perFile(startTestServer);
let admin: Signed;
let boss: Signed;
let developer: Signed;
let colleague: Signed;
let person: Client;
let personId: string;
let mailedFrom = 0n;

/** Everything that names the person to be deleted, as anyone would search for them. */
const NAMES = ['Zephyrine', 'Quillfeather', 'zquill', 'zephyrine.q@example.org'];

beforeAll(async () => {
  admin = await server.signedIn('admin');
  boss = await server.signedIn('admin', { superAdmin: true });
  developer = await server.signedIn('developer');
  colleague = await server.signedIn('staff');
  mailedFrom = await server.runtime.store.headPosition();
});

/** Plans the mail of everything recorded since the last call into the outbox (no SMTP here). */
async function planMail() {
  await server.runtime
    .sql`insert into process_checkpoints (name, position) values ('email', ${mailedFrom.toString()})
    on conflict (name) do nothing`;
  await server.planMail();
}

/** Rows of every table in every schema whose text holds one of `terms`, by table. */
async function search(terms: string[]): Promise<Record<string, number>> {
  const { sql } = server.runtime;
  const tables = await sql<{ schema: string; name: string }[]>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`;
  const patterns = terms.map((term) => `%${term}%`);
  const hits: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from ${sql(table.schema)}.${sql(table.name)} t
      where t::text ilike any(${patterns})`;
    if (row!.n > 0) hits[`${table.schema}.${table.name}`] = row!.n;
  }
  return hits;
}

const slot = (hoursFromNow: number) => easternSlot(new Date(Date.now() + hoursFromNow * 3_600_000), 4);

async function post(notes: string, hoursFromNow: number): Promise<string> {
  const reply = await admin.post('/api/shifts', {
    location: 'Maple House',
    type: 'AM',
    notes,
    ...slot(hoursFromNow),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
}

async function held(by: Client, notes: string, hoursFromNow: number): Promise<string> {
  const id = await post(notes, hoursFromNow);
  expect((await by.post(`/api/shifts/${id}/claim`)).status).toBe(200);
  expect((await admin.post(`/api/shifts/${id}/approve`)).status).toBe(200);
  return id;
}

describe('deleting a person', () => {
  const shifts: Record<string, string> = {};

  it('leaves them in mail, the outbox, the audit trail and the read models until then', async () => {
    const residence = await boss.post('/api/residences', { name: 'Maple House' });
    expect(residence.status).toBe(201);
    // The admin concerned: Maple House is theirs.
    const assigned = await boss.post(`/api/users/${admin.userId}/assign-residence`, {
      residenceId: residence.body.id,
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const created = await admin.post('/api/users', {
      username: 'zquill',
      password: 'secret1',
      confirmPassword: 'secret1',
      firstName: 'Zephyrine',
      lastName: 'Quillfeather',
      email: 'zephyrine.q@example.org',
      role: 'staff',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    personId = created.body.id as string;
    person = server.anonymous();
    expect((await person.post('/api/auth/login', { username: 'zquill', password: 'secret1' })).status).toBe(
      200,
    );
    const mistyped = await server
      .anonymous()
      .post('/api/auth/login', { username: 'zquill', password: 'wrong1' });
    expect(mistyped.status).toBe(401);

    shifts.soon = await held(person, 'Held, tomorrow', 24);
    shifts.later = await held(person, 'Held, next week', 24 * 7);
    shifts.claimed = await post('Claimed, in five days', 24 * 5);
    expect((await person.post(`/api/shifts/${shifts.claimed}/claim`)).status).toBe(200);
    shifts.offeredByThem = await held(person, 'Offered by them', 24 * 3);
    const offer = await person.post(`/api/shifts/${shifts.offeredByThem}/transfer-request`, {
      toUserId: colleague.userId,
    });
    expect(offer.status, JSON.stringify(offer.body)).toBe(201);
    shifts.offeredToThem = await held(colleague, 'Offered to them', 24 * 4);
    const toThem = await colleague.post(`/api/shifts/${shifts.offeredToThem}/transfer-request`, {
      toUserId: personId,
    });
    expect(toThem.status, JSON.stringify(toThem.body)).toBe(201);
    const test = await developer.post('/api/test-email', {
      email: 'zephyrine.q@example.org',
      subject: 'Hello Zephyrine',
      message: 'Is mail reaching zquill?',
    });
    expect(test.status).toBe(200);
    await planMail();

    const hits = await search(NAMES);
    // The search reads what is stored: the person is found where copies of them are kept.
    expect(Object.keys(hits)).toEqual(
      expect.arrayContaining(['public.email_deliveries', 'public.login_failures', 'public.rm_users_g1']),
    );
    expect(JSON.stringify((await developer.get('/api/email-outbox')).body)).toContain(
      'zephyrine.q@example.org',
    );
  });

  it('reopens what they held, ends transfers to and from them, and tells the admins', async () => {
    const deleted = await admin.delete(`/api/users/${personId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    const list = (await admin.get('/api/shifts?status=all')).body as unknown as Array<{
      id: string;
      status: string;
      assignedUserId: string | null;
    }>;
    const byId = (id: string) => list.find((s) => s.id === id);
    expect(byId(shifts.soon!)).toMatchObject({ status: 'urgent', assignedUserId: null });
    expect(byId(shifts.later!)).toMatchObject({ status: 'open', assignedUserId: null });
    expect(byId(shifts.claimed!)).toMatchObject({ status: 'open', assignedUserId: null });
    expect(byId(shifts.offeredByThem!)).toMatchObject({ status: 'open', assignedUserId: null });
    expect(byId(shifts.offeredToThem!)).toMatchObject({
      status: 'approved',
      assignedUserId: colleague.userId,
    });

    const transfers = (await colleague.get('/api/transfer-requests')).body as unknown as Array<{
      shiftId: string;
      status: string;
    }>;
    // Their offer to the colleague is withdrawn (cancelled offers are not listed to recipients).
    expect(transfers.map((t) => [t.shiftId, t.status])).toEqual([[shifts.offeredToThem, 'cancelled']]);
    // The colleague may offer the shift again.
    const again = await colleague.post(`/api/shifts/${shifts.offeredToThem}/transfer-request`, {
      toUserId: admin.userId,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);

    await planMail();
    const bell = (await admin.get('/api/notifications')).body;
    const notes = bell.notifications as Array<{ title: string; shiftId: string; read: boolean }>;
    // The four notices are counted unread for the admin, with the rest of what they have not read.
    expect(bell.unreadCount).toBe(notes.filter((n) => !n.read).length);
    expect(
      notes
        .filter((n) => n.title === 'Shift reopened')
        .map((n) => n.shiftId)
        .sort(),
    ).toEqual([shifts.soon, shifts.later, shifts.claimed, shifts.offeredByThem].sort());
    const outbox = (await developer.get('/api/email-outbox')).body as unknown as Array<{
      to: string;
      subject: string;
    }>;
    const reopened = outbox.filter((m) => m.subject.startsWith('Shift reopened: Maple House'));
    expect(reopened).toHaveLength(4);
    expect(new Set(reopened.map((m) => m.to))).toEqual(
      new Set([`admin-${admin.userId.slice(0, 8)}@example.org`]),
    );
    const bossNotes = (await boss.get('/api/notifications')).body.notifications as Array<{ title: string }>;
    expect(bossNotes.filter((n) => n.title === 'Shift reopened')).toEqual([]);
    expect(outbox.some((m) => m.subject.startsWith('Urgent coverage needed: Maple House'))).toBe(true);
  });

  it('leaves nothing anywhere that names them: every table of every schema, the outbox, the audit trail', async () => {
    expect(await search(NAMES)).toEqual({});
    const outbox = JSON.stringify((await developer.get('/api/email-outbox')).body);
    const audit = JSON.stringify((await admin.get('/api/audit-logs?limit=100')).body);
    for (const name of NAMES) {
      expect(outbox.toLowerCase()).not.toContain(name.toLowerCase());
      expect(audit.toLowerCase()).not.toContain(name.toLowerCase());
    }
  });

  it('is done once: deleting again is refused and changes nothing', async () => {
    const again = await admin.delete(`/api/users/${personId}`);
    expect(again.status).toBe(404);
  });
});
