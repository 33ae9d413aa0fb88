import { randomUUID } from 'node:crypto';
import { createCommandService } from '@shiftcover/command-api';
import { shiftInterval } from '@shiftcover/domain';
import { physicalTable, readCheckpoint } from '@shiftcover/projections';
import { perFile } from '@shiftcover/testing';
import { formatInTimeZone } from 'date-fns-tz';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer } from '../testing/http';
import { aShiftForm, inDays } from '../testing/shift-form';

type Signed = Client & { userId: string };
const server = perFile(startTestServer);
let developer: Signed;
let superAdmin: Signed;
let admin: Signed;
let staff: Signed;
let colleague: Signed;
const ids: Record<string, string> = {};

async function post(name: string, form: Parameters<typeof aShiftForm>[0]) {
  const reply = await developer.post('/api/shifts', aShiftForm(form));
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  ids[name] = reply.body.id as string;
}

beforeAll(async () => {
  developer = await server.signedIn('developer');
  superAdmin = await server.signedIn('admin', { superAdmin: true });
  admin = await server.signedIn('admin');
  staff = await server.signedIn('staff', { username: 'riley' });
  colleague = await server.signedIn('staff', { username: 'casey' });
  for (const name of ['Maple House', 'Oak Lodge', 'Day Program']) {
    ids[name] = (await developer.post('/api/residences', { name })).body.id as string;
  }
  await superAdmin.post(`/api/users/${admin.userId}/assign-residence`, { residenceId: ids['Maple House'] });
  await post('open', { location: 'Maple House', date: inDays(3) });
  await post('urgent', { location: 'Oak Lodge', date: inDays(4), status: 'urgent' });
  await post('emergency', { location: 'Oak Lodge', date: inDays(5), status: 'emergency' });
  await post('dayProgram', {
    location: 'Day Program',
    date: inDays(3),
    startTime: '09:00',
    endTime: '15:00',
  });
  await post('pendingMaple', { location: 'Maple House', date: inDays(6) });
  await post('pendingOak', {
    location: 'Oak Lodge',
    date: inDays(6),
    startTime: '16:00',
    endTime: '00:00',
    type: 'PM',
  });
  await post('approved', { location: 'Maple House', date: inDays(7) });
  await post('dropping', { location: 'Maple House', date: inDays(8) });
  await post('transfer', {
    location: 'Maple House',
    date: inDays(9),
    type: 'PM',
    startTime: '16:00',
    endTime: '23:00',
  });
  await staff.post(`/api/shifts/${ids.pendingMaple}/claim`);
  await colleague.post(`/api/shifts/${ids.pendingOak}/claim`);
  for (const name of ['approved', 'dropping', 'transfer']) {
    await staff.post(`/api/shifts/${ids[name]}/claim`);
    await developer.post(`/api/shifts/${ids[name]}/approve`);
  }
  await staff.post(`/api/shifts/${ids.dropping}/request-drop`);
  ids.transferRequest = (
    await staff.post(`/api/shifts/${ids.transfer}/transfer-request`, {
      toUserId: colleague.userId,
      message: 'Swap?',
    })
  ).body.id as string;
});

/** The list a GET answers with, as `who`. */
const rows = async (who: Client, path: string) =>
  (await who.get(path)).body as unknown as Array<Record<string, unknown>>;
const shifts = (who: Client, query = '') => rows(who, `/api/shifts${query}`);

describe('GET /api/shifts', () => {
  it('sorts emergency first, then urgent, then date and start time', async () => {
    const list = await shifts(developer);
    expect(list.slice(0, 2).map((s) => s.id)).toEqual([ids.emergency, ids.urgent]);
    const rest = list.slice(2).map((s) => `${s.date} ${s.startTime}`);
    expect(rest).toEqual([...rest].sort());
  });

  it('filters by status with docs/product.md §4’s meanings', async () => {
    const open = await shifts(developer, '?status=open');
    expect(open.map((s) => s.id).sort()).toEqual(
      [ids.open, ids.urgent, ids.emergency, ids.dayProgram].sort(),
    );
    const claimed = await shifts(developer, '?status=claimed');
    expect(claimed.every((s) => s.assignedUserId !== null)).toBe(true);
    expect(claimed).toHaveLength(5);
    const urgent = await shifts(developer, '?status=urgent');
    expect(urgent.map((s) => s.id).sort()).toEqual([ids.urgent, ids.emergency].sort());
  });

  it('filters by location and by type, in both readings of the product guide', async () => {
    expect((await shifts(developer, '?location=Oak%20Lodge')).every((s) => s.location === 'Oak Lodge')).toBe(
      true,
    );
    expect((await shifts(developer, '?type=Day%20Program')).map((s) => s.id)).toEqual([ids.dayProgram]);
    expect((await shifts(developer, '?type=Residential')).some((s) => s.location === 'Day Program')).toBe(
      false,
    );
    expect((await shifts(developer, '?type=PM')).every((s) => s.type === 'PM')).toBe(true);
  });

  it('embeds the holder for admins and marks a requested transfer', async () => {
    const transfer = (await shifts(developer)).find((s) => s.id === ids.transfer)!;
    expect(transfer).toMatchObject({
      transferRequested: true,
      assignedUser: { id: staff.userId, firstName: 'Test' },
    });
  });

  it('shows staff what they can claim and what is theirs, nobody else’s', async () => {
    const list = await shifts(colleague);
    const visible = new Set(list.map((s) => s.id));
    expect(visible.has(ids.open)).toBe(true);
    expect(visible.has(ids.pendingOak)).toBe(true);
    expect(visible.has(ids.approved)).toBe(false);
    expect(list.every((s) => s.assignedUserId === null || s.assignedUserId === colleague.userId)).toBe(true);
  });

  it('is for signed-in users only', async () => {
    expect((await server.anonymous().get('/api/shifts')).status).toBe(401);
  });
});

describe('admin views', () => {
  it('pending approvals: a plain admin sees their residence, a developer may filter, staff are refused', async () => {
    const mine = await rows(admin, '/api/shifts/pending');
    expect(mine.map((s) => s.id)).toEqual([ids.pendingMaple]);
    expect(mine[0]!.staffName).toMatchObject({ firstName: 'Test', username: 'riley' });
    const all = await rows(developer, '/api/shifts/pending');
    expect(all).toHaveLength(2);
    const oak = await rows(developer, '/api/shifts/pending?location=Oak%20Lodge');
    expect(oak.map((s) => s.id)).toEqual([ids.pendingOak]);
    // The admin's next read follows a new assignment.
    const assign = (residence: string) =>
      superAdmin.post(`/api/users/${admin.userId}/assign-residence`, { residenceId: ids[residence] });
    await assign('Oak Lodge');
    expect((await rows(admin, '/api/shifts/pending')).map((s) => s.id)).toEqual([ids.pendingOak]);
    await assign('Maple House');
    expect((await rows(admin, '/api/shifts/pending')).map((s) => s.id)).toEqual([ids.pendingMaple]);
    expect(await staff.get('/api/shifts/pending')).toMatchObject({
      status: 403,
      body: { message: 'Access denied. Admin privileges required.' },
    });
  });

  it('drop requests list who asked and when', async () => {
    const list = await rows(admin, '/api/admin/drop-requests');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: ids.dropping,
      location: 'Maple House',
      staffName: { firstName: 'Test' },
    });
    expect((await staff.get('/api/admin/drop-requests')).status).toBe(403);
  });

  it('dashboard stats: open with emergency and urgent counts, coverage, pending, this month', async () => {
    const stats = (await admin.get('/api/dashboard/stats')).body;
    expect(stats).toMatchObject({
      openShifts: 4,
      emergencyShifts: 1,
      urgentShifts: 1,
      coveredShifts: 5,
      pendingApprovals: 2,
    });
    expect(stats.coveragePercent).toBe(Math.round((5 / 9) * 100));
    expect((await staff.get('/api/dashboard/stats')).body).toEqual({ openShifts: 4 });
  });

  it('users: admins get the full list with filters, staff only colleagues’ names for transfers', async () => {
    const all = await rows(admin, '/api/users?role=staff&sort=alphabetical');
    expect(all.every((u) => u.role === 'staff')).toBe(true);
    const maple = await rows(admin, `/api/users?residence=${ids['Maple House']}`);
    expect(maple.map((u) => u.id)).toEqual([admin.userId]);
    expect(maple[0]!.assignedResidenceName).toBe('Maple House');
    const forStaff = await rows(staff, '/api/users');
    expect(forStaff.some((u) => u.id === staff.userId)).toBe(false);
    expect(forStaff.every((u) => u.role === 'staff' || u.role === 'admin')).toBe(true);
    expect(Object.keys(forStaff[0]!).sort()).toEqual(['firstName', 'id', 'lastName', 'role', 'username']);
  });

  it('a user’s shifts: admins see anyone’s, staff only their own', async () => {
    expect((await rows(admin, `/api/users/${staff.userId}/shifts`)).length).toBe(4);
    expect((await colleague.get(`/api/users/${staff.userId}/shifts`)).status).toBe(403);
  });
});

describe('staff views', () => {
  it('My Shifts: upcoming in order, this week, hours this week', async () => {
    const mine = (await staff.get('/api/my-shifts')).body as {
      upcoming: Array<{ id: string; date: string }>;
      thisWeekCount: number;
      hoursThisWeek: number;
      history: unknown[];
    };
    expect(mine.upcoming.map((s) => s.id)).toEqual([
      ids.pendingMaple,
      ids.approved,
      ids.dropping,
      ids.transfer,
    ]);
    expect(mine.thisWeekCount).toBe(2);
    expect(mine.hoursThisWeek).toBe(16);
    expect(mine.history).toEqual([]);
  });

  it('transfer requests: incoming for the recipient, outgoing for the sender', async () => {
    const incoming = await rows(colleague, '/api/transfer-requests');
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({
      id: ids.transferRequest,
      direction: 'incoming',
      status: 'pending',
      message: 'Swap?',
      shift: { id: ids.transfer, location: 'Maple House' },
      fromUser: { firstName: 'Test', username: 'riley' },
    });
    const outgoing = await rows(staff, '/api/transfer-requests');
    expect(outgoing[0]).toMatchObject({ direction: 'outgoing' });
  });

  it('notifications: an approval arrives, and marking all read clears the count', async () => {
    const before = (await staff.get('/api/notifications')).body as {
      notifications: Array<{ type: string; title: string }>;
      unreadCount: number;
    };
    expect(
      before.notifications.some((n) => n.type === 'shift_approval' && n.title === 'Shift approved'),
    ).toBe(true);
    expect(before.unreadCount).toBeGreaterThan(0);
    expect((await staff.post('/api/notifications/read', {})).status).toBe(200);
    expect((await staff.get('/api/notifications/unread-count')).body).toEqual({ unreadCount: 0 });

    // Marking all read again rewrites none of the rows already read (their row versions stay).
    const { sql } = server.runtime;
    const { generation } = (await readCheckpoint(sql, 'notifications'))!;
    const table = sql(physicalTable('notifications', generation));
    const versions = () => sql<{ id: string; xmin: string }[]>`
      select id, xmin::text from ${table} where user_id = ${staff.userId} order by id`;
    const marked = await versions();
    expect(marked.length).toBeGreaterThan(0);
    expect((await staff.post('/api/notifications/read', {})).status).toBe(200);
    expect((await staff.get('/api/notifications/unread-count')).body).toEqual({ unreadCount: 0 });
    expect(await versions()).toEqual(marked);
  });

  it('notifications: the unread count follows notices as they come and as they are read, one by one or all', async () => {
    const unreadRows = async (who: Signed) =>
      (
        await server.runtime.sql<{ n: number }[]>`
          select count(*)::int as n from rm_notifications where user_id = ${who.userId} and not read`
      )[0]!.n;
    const count = async (who: Signed) => {
      const { notifications, unreadCount } = (await who.get('/api/notifications')).body as {
        notifications: Array<{ id: string; read: boolean }>;
        unreadCount: number;
      };
      expect((await who.get('/api/notifications/unread-count')).body).toEqual({ unreadCount });
      expect(unreadCount).toBe(await unreadRows(who));
      return { unreadCount, unread: notifications.filter((n) => !n.read).map((n) => n.id) };
    };
    // Two new shifts: a notice to every staff member each.
    const before = await count(colleague);
    await post('notice one', { location: 'Maple House', date: inDays(20) });
    await post('notice two', { location: 'Oak Lodge', date: inDays(21) });
    const arrived = await count(colleague);
    expect(arrived.unreadCount).toBe(before.unreadCount + 2);
    // One read by its id, then the same again (no change), then one already read with one unread.
    const [first, second] = arrived.unread;
    await colleague.post('/api/notifications/read', { ids: [first] });
    expect((await count(colleague)).unreadCount).toBe(arrived.unreadCount - 1);
    await colleague.post('/api/notifications/read', { ids: [first] });
    expect((await count(colleague)).unreadCount).toBe(arrived.unreadCount - 1);
    await colleague.post('/api/notifications/read', { ids: [first, second] });
    expect((await count(colleague)).unreadCount).toBe(arrived.unreadCount - 2);
    await colleague.post('/api/notifications/read', {});
    expect((await count(colleague)).unreadCount).toBe(0);
    // Someone else's notices are not touched by it.
    expect((await count(staff)).unreadCount).toBeGreaterThan(0);
  });

  it('residences and the e-mail mode are readable by every signed-in user', async () => {
    const residences = await rows(staff, '/api/residences');
    expect(residences.map((r) => r.name)).toEqual(['Day Program', 'Maple House', 'Oak Lodge']);
    await developer.post('/api/system-config/email-notification-mode', { mode: 'mailing_list' });
    expect((await staff.get('/api/system-config/email-notification-mode')).body).toMatchObject({
      value: 'mailing_list',
    });
  });
});

describe('records', () => {
  it('audit log: last 7 days, filters, paging, actor names and technical details; senior admins only', async () => {
    const page = (await superAdmin.get('/api/audit-logs?limit=5')).body as {
      logs: Array<Record<string, unknown>>;
      totalCount: number;
      hasMore: boolean;
    };
    expect(page.logs).toHaveLength(5);
    expect(page.hasMore).toBe(true);
    const claims = (await superAdmin.get(`/api/audit-logs?action=shift_claimed&userId=${staff.userId}`))
      .body as typeof page;
    expect(claims.totalCount).toBe(4);
    expect(claims.logs[0]).toMatchObject({
      action: 'shift_claimed',
      entityType: 'shift',
      userRole: 'staff',
      userName: 'riley',
    });
    expect(String(claims.logs[0]!.description)).toMatch(/^Claimed the (AM|PM) shift at Maple House on /);
    // The details are the entry's own event, read from the log by its position.
    for (const log of [...claims.logs, ...page.logs]) {
      const details = log.details as { eventType: string; position: string; streamId: string };
      expect(details.position).toBe(log.id);
      const [event] = await server.runtime.store.readAt([BigInt(details.position)]);
      expect(details).toMatchObject({ eventType: event!.type, streamId: event!.streamId });
    }
    expect(claims.logs.map((l) => (l.details as { eventType: string }).eventType)).toEqual(
      Array(4).fill('ShiftClaimed'),
    );
    const residences = (await superAdmin.get('/api/audit-logs?entityType=residence')).body as typeof page;
    expect(residences.logs.every((l) => l.entityType === 'residence')).toBe(true);
    const old = (await superAdmin.get('/api/audit-logs?startDate=2020-01-01&endDate=2020-01-31'))
      .body as typeof page;
    expect(old.totalCount).toBe(0);
    expect(JSON.stringify(page)).not.toMatch(/passwordHash|scrypt/);
    expect((await admin.get('/api/audit-logs')).status).toBe(403);
    expect((await superAdmin.get('/api/audit-logs?limit=1000')).status).toBe(400);
  });

  it('completed shifts: one record each, hoursWorked in minutes, filtered and sorted; senior admins only', async () => {
    expect((await developer.get('/api/completed-shifts')).body).toEqual([]);
    const service = createCommandService(server.runtime.handler, server.runtime.vault);
    const later = new Date(Date.now() + 12 * 86_400_000);
    let position = 0n;
    for (const name of ['approved', 'dropping']) {
      const done = await service.shift(
        { type: 'CompleteShift', data: { shiftId: ids[name]! } },
        { actor: { kind: 'system', name: 'timers' }, now: later },
        { commandId: randomUUID() },
      );
      position = done.position;
    }
    const records = (
      await developer.call('GET', '/api/completed-shifts?sort=oldest', undefined, {
        'x-min-position': position.toString(),
      })
    ).body as unknown as Array<Record<string, unknown>>;
    expect(records.map((r) => r.originalShiftId)).toEqual([ids.approved, ids.dropping]);
    expect(records[0]).toMatchObject({
      location: 'Maple House',
      hoursWorked: 480,
      assignedUserName: 'Test staff',
      type: 'AM',
    });
    const oak = await rows(developer, '/api/completed-shifts?location=Oak%20Lodge');
    expect(oak).toEqual([]);
    const today = await rows(developer, '/api/completed-shifts?dateRange=today');
    expect(today).toEqual([]);
    expect((await admin.get('/api/completed-shifts')).status).toBe(403);
  });
});

describe('developer tools', () => {
  it('e-mail queue status and the outbox are for developers only', async () => {
    const status = await developer.get('/api/email-queue/status');
    expect(status.status).toBe(200);
    expect(Object.keys(status.body).sort()).toEqual([
      'failed',
      'oldestWaiting',
      'pending',
      'processing',
      'ready',
      'total',
    ]);
    expect((await developer.get('/api/email-outbox')).status).toBe(200);
    expect((await superAdmin.get('/api/email-queue/status')).status).toBe(403);
    expect((await staff.get('/api/email-outbox')).status).toBe(403);
  });
});

describe('consistency the user can feel', () => {
  /** Posts the shift, then lists its location naming the write's position: does the list hold it? */
  async function readsOwnWrite(form: ReturnType<typeof aShiftForm>) {
    const created = await developer.post('/api/shifts', form);
    const reply = await developer.call(
      'GET',
      `/api/shifts?location=${encodeURIComponent(form.location)}`,
      undefined,
      { 'x-min-position': created.body.position! },
    );
    return (reply.body as unknown as Array<{ id: string }>).some((s) => s.id === created.body.id);
  }

  it('a read that names the position of the reader’s write always sees it, 30 times over', async () => {
    for (let i = 0; i < 30; i++) {
      expect(await readsOwnWrite(aShiftForm({ location: 'Oak Lodge', date: inDays(20 + i) }))).toBe(true);
    }
  });

  it('under load: 20 writers at once each read their own write straight after', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        readsOwnWrite(
          aShiftForm({
            location: 'Day Program',
            date: inDays(60 + i),
            startTime: '09:00',
            endTime: '15:00',
          }),
        ),
      ),
    );
    expect(results.every(Boolean)).toBe(true);
  });

  it('shifts in progress: assigned and under way now, with progress and the worker’s name', async () => {
    // Two hours ago, or midnight when that was yesterday (past dates cannot be scheduled).
    const zone = 'America/New_York';
    const today = formatInTimeZone(new Date(), zone, 'yyyy-MM-dd');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    const sameDay = formatInTimeZone(twoHoursAgo, zone, 'yyyy-MM-dd') === today;
    const date = today;
    const startTime = sameDay ? formatInTimeZone(twoHoursAgo, zone, 'HH:mm') : '00:00';
    const endTime = sameDay
      ? formatInTimeZone(new Date(twoHoursAgo.getTime() + 8 * 3_600_000), zone, 'HH:mm')
      : '08:00';
    const created = await developer.post(
      '/api/shifts',
      aShiftForm({ location: 'Oak Lodge', date, startTime, endTime }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await colleague.post(`/api/shifts/${created.body.id}/claim`);
    await developer.post(`/api/shifts/${created.body.id}/approve`);
    const active = await rows(admin, '/api/shifts/in-progress');
    const mine = active.find((s) => s.id === created.body.id)!;
    expect(mine.staffName).toBe('Test staff');
    const { start, end } = shiftInterval(date, startTime, endTime);
    const expected = ((Date.now() - start.getTime()) / (end.getTime() - start.getTime())) * 100;
    expect(Math.abs((mine.progressPercent as number) - expected)).toBeLessThanOrEqual(2);
    expect((await staff.get('/api/shifts/in-progress')).status).toBe(403);
  });

  it('a position the read models never reach gives a clear 503 after 5 s', async () => {
    const far = await staff.call('GET', '/api/residences', undefined, {
      'x-min-position': '9000000000000000000',
    });
    expect(far).toMatchObject({
      status: 503,
      body: { message: 'The latest changes are still being processed. Please try again in a moment.' },
    });
  }, 15_000);

  it('live updates tell an open screen what changed', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.baseUrl}/api/live`, {
      headers: { cookie: admin.cookie },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    const heard = (async () => {
      while (!text.includes('event: change')) text += new TextDecoder().decode((await reader.read()).value);
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await colleague.post(`/api/shifts/${ids.open}/claim`);
    await Promise.race([
      heard,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no notice: ${text}`)), 5000)),
    ]);
    controller.abort();
    expect(text).toMatch(/"views":\[[^\]]*"shifts"/);
    expect((await fetch(`${server.baseUrl}/api/live`)).status).toBe(401);
  });
});
