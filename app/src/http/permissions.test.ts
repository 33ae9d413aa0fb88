import { randomUUID } from 'node:crypto';
import { perFile } from '@shiftcover/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client, Reply } from '../testing/http';
import { startTestServer } from '../testing/http';
import { aShiftForm } from '../testing/shift-form';

type Who = 'signedOut' | 'staff' | 'admin' | 'superAdmin' | 'developer';
type Caller = Client & { userId?: string };

const server = perFile(startTestServer);
let root: Client & { userId: string };
const callers = {} as Record<Who, Caller>;
let day = 0;

beforeAll(async () => {
  root = await server.signedIn('developer');
  callers.signedOut = server.anonymous();
  callers.staff = await server.signedIn('staff');
  callers.admin = await server.signedIn('admin');
  callers.superAdmin = await server.signedIn('admin', { superAdmin: true });
  callers.developer = await server.signedIn('developer');
});

/** Each call gets its own shift on its own day, so no call trips over another’s schedule. */
async function shift(): Promise<string> {
  day += 1;
  const date = new Date(Date.UTC(2027, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
  const reply = await root.post('/api/shifts', aShiftForm({ date }));
  return reply.body.id as string;
}

async function heldBy(caller: Caller): Promise<string> {
  const id = await shift();
  const holder = caller.userId ? caller : await server.signedIn('staff');
  await holder.post(`/api/shifts/${id}/claim`);
  await root.post(`/api/shifts/${id}/approve`);
  return id;
}

async function account(role: 'staff' | 'admin' | 'developer', superAdmin = false): Promise<string> {
  const name = `acct${randomUUID().slice(0, 8)}`;
  const reply = await root.post('/api/users', {
    username: name,
    password: 'secret1',
    confirmPassword: 'secret1',
    firstName: 'Pat',
    lastName: 'Doe',
    email: `${name}@example.org`,
    role,
    superAdmin,
  });
  return reply.body.id as string;
}

async function residence(): Promise<string> {
  return (await root.post('/api/residences', { name: `Home ${randomUUID().slice(0, 8)}` })).body.id as string;
}

const newUser = (role: string) => {
  const name = `new${randomUUID().slice(0, 8)}`;
  return {
    username: name,
    password: 'secret1',
    confirmPassword: 'secret1',
    firstName: 'Sam',
    lastName: 'Roe',
    email: `${name}@example.org`,
    role,
  };
};
const shiftBody = aShiftForm({ date: '2027-06-01' });
const editBody = (username: string) => ({
  username,
  email: `${username}@example.org`,
  firstName: 'Pat',
  lastName: 'Doe',
});

/** docs/product.md §6 for every write route: the status each caller gets. `ok` is any 2xx. */
const matrix: Array<{ route: string; allowed: Who[]; call: (c: Caller) => Promise<Reply> }> = [
  {
    route: 'POST /api/shifts',
    allowed: ['admin', 'superAdmin', 'developer'],
    call: (c) => c.post('/api/shifts', shiftBody),
  },
  {
    route: 'PUT /api/shifts/:id',
    allowed: ['admin', 'superAdmin', 'developer'],
    call: async (c) => c.put(`/api/shifts/${await shift()}`, { ...shiftBody, date: '2027-07-01' }),
  },
  {
    route: 'DELETE /api/shifts/:id',
    allowed: ['admin', 'superAdmin', 'developer'],
    call: async (c) => c.delete(`/api/shifts/${await shift()}`),
  },
  {
    route: 'POST /api/shifts/:id/claim',
    allowed: ['staff', 'admin', 'superAdmin', 'developer'],
    call: async (c) => c.post(`/api/shifts/${await shift()}/claim`),
  },
  ...(['approve', 'deny'] as const).map((action) => ({
    route: `POST /api/shifts/:id/${action}`,
    allowed: ['admin', 'superAdmin', 'developer'] as Who[],
    call: async (c: Caller) => {
      const id = await shift();
      await (await server.signedIn('staff')).post(`/api/shifts/${id}/claim`);
      return c.post(`/api/shifts/${id}/${action}`);
    },
  })),
  {
    route: 'POST /api/shifts/:id/request-drop',
    allowed: ['staff', 'admin', 'superAdmin', 'developer'],
    call: async (c) => c.post(`/api/shifts/${await heldBy(c)}/request-drop`),
  },
  {
    route: 'POST /api/shifts/:id/assign',
    allowed: ['admin', 'superAdmin', 'developer'],
    call: async (c) => c.post(`/api/shifts/${await shift()}/assign`, { staffId: await account('staff') }),
  },
  {
    route: 'POST /api/shifts/:id/transfer-request',
    allowed: ['staff', 'admin', 'superAdmin', 'developer'],
    call: async (c) =>
      c.post(`/api/shifts/${await heldBy(c)}/transfer-request`, { toUserId: await account('staff') }),
  },
  ...(['accepted', 'declined'] as const).map((status) => ({
    route: `PATCH /api/transfer-requests/:id (${status}, someone else’s)`,
    allowed: [] as Who[],
    call: async (c: Caller) => {
      const sender = await server.signedIn('staff');
      const id = await heldBy(sender);
      const sent = await sender.post(`/api/shifts/${id}/transfer-request`, {
        toUserId: await account('staff'),
      });
      return c.patch(`/api/transfer-requests/${sent.body.id}`, { status });
    },
  })),
  {
    route: 'DELETE /api/transfer-requests/:id (someone else’s)',
    allowed: [],
    call: async (c) => {
      const sender = await server.signedIn('staff');
      const id = await heldBy(sender);
      const sent = await sender.post(`/api/shifts/${id}/transfer-request`, {
        toUserId: await account('staff'),
      });
      return c.delete(`/api/transfer-requests/${sent.body.id}`);
    },
  },
  ...(['approve', 'deny'] as const).map((action) => ({
    route: `POST /api/admin/drop-requests/:id/${action}`,
    allowed: ['admin', 'superAdmin', 'developer'] as Who[],
    call: async (c: Caller) => {
      const holder = await server.signedIn('staff');
      const id = await heldBy(holder);
      await holder.post(`/api/shifts/${id}/request-drop`);
      return c.post(`/api/admin/drop-requests/${id}/${action}`);
    },
  })),
  {
    route: 'POST /api/residences',
    allowed: ['superAdmin', 'developer'],
    call: (c) => c.post('/api/residences', { name: `R ${randomUUID()}` }),
  },
  {
    route: 'PUT /api/residences/:id',
    allowed: ['superAdmin', 'developer'],
    call: async (c) => c.put(`/api/residences/${await residence()}`, { name: `R ${randomUUID()}` }),
  },
  {
    route: 'DELETE /api/residences/:id',
    allowed: ['superAdmin', 'developer'],
    call: async (c) => c.delete(`/api/residences/${await residence()}`),
  },
  {
    route: 'POST /api/users (staff)',
    allowed: ['admin', 'superAdmin', 'developer'],
    call: (c) => c.post('/api/users', newUser('staff')),
  },
  {
    route: 'POST /api/users (admin)',
    allowed: ['superAdmin', 'developer'],
    call: (c) => c.post('/api/users', newUser('admin')),
  },
  {
    route: 'POST /api/users (super admin)',
    allowed: ['superAdmin', 'developer'],
    call: (c) => c.post('/api/users', { ...newUser('admin'), superAdmin: true }),
  },
  {
    route: 'POST /api/users (developer)',
    allowed: ['developer'],
    call: (c) => c.post('/api/users', newUser('developer')),
  },
  {
    route: 'PUT /api/users/:id (staff)',
    allowed: ['admin', 'superAdmin', 'developer'],
    call: async (c) =>
      c.put(`/api/users/${await account('staff')}`, editBody(`ed${randomUUID().slice(0, 8)}`)),
  },
  {
    route: 'PUT /api/users/:id (admin)',
    allowed: ['superAdmin', 'developer'],
    call: async (c) =>
      c.put(`/api/users/${await account('admin')}`, editBody(`ed${randomUUID().slice(0, 8)}`)),
  },
  {
    route: 'PUT /api/users/:id (developer)',
    allowed: ['developer'],
    call: async (c) =>
      c.put(`/api/users/${await account('developer')}`, editBody(`ed${randomUUID().slice(0, 8)}`)),
  },
  {
    route: 'DELETE /api/users/:id (staff)',
    allowed: ['admin', 'superAdmin', 'developer'],
    call: async (c) => c.delete(`/api/users/${await account('staff')}`),
  },
  {
    route: 'DELETE /api/users/:id (admin)',
    allowed: ['superAdmin', 'developer'],
    call: async (c) => c.delete(`/api/users/${await account('admin')}`),
  },
  {
    route: 'DELETE /api/users/:id (super admin)',
    allowed: ['developer'],
    call: async (c) => c.delete(`/api/users/${await account('admin', true)}`),
  },
  {
    route: 'PUT /api/users/:id/password (staff)',
    allowed: ['superAdmin', 'developer'],
    call: async (c) => c.put(`/api/users/${await account('staff')}/password`, { newPassword: 'another1' }),
  },
  {
    route: 'PUT /api/users/:id/password (developer)',
    allowed: ['developer'],
    call: async (c) =>
      c.put(`/api/users/${await account('developer')}/password`, { newPassword: 'another1' }),
  },
  {
    route: 'POST /api/users/:id/assign-residence (admin)',
    allowed: ['superAdmin', 'developer'],
    call: async (c) =>
      c.post(`/api/users/${await account('admin')}/assign-residence`, { residenceId: await residence() }),
  },
  {
    route: 'POST /api/system-config/email-notification-mode',
    allowed: ['developer'],
    call: (c) => c.post('/api/system-config/email-notification-mode', { mode: 'mailing_list' }),
  },
  {
    route: 'POST /api/test-email',
    allowed: ['developer'],
    call: (c) => c.post('/api/test-email', { email: 'ops@example.org', subject: 'Hi', message: 'Test' }),
  },
  {
    route: 'POST /api/email-diagnostic',
    allowed: ['developer'],
    call: (c) => c.post('/api/email-diagnostic', { email: 'ops@example.org' }),
  },
  { route: 'POST /api/test-reminders', allowed: ['developer'], call: (c) => c.post('/api/test-reminders') },
  {
    route: 'POST /api/bulk-test-emails',
    allowed: ['developer'],
    call: (c) => c.post('/api/bulk-test-emails', { count: 1 }),
  },
  {
    route: 'POST /api/email-queue/clear',
    allowed: ['developer'],
    call: (c) => c.post('/api/email-queue/clear'),
  },
  {
    route: 'POST /api/admin/resend-shift-notification/:id',
    allowed: ['superAdmin', 'developer'],
    call: async (c) =>
      c.post(`/api/admin/resend-shift-notification/${await shift()}`, {
        recipients: [await account('staff')],
      }),
  },
  {
    route: 'POST /api/admin/send-manual-report',
    allowed: ['superAdmin', 'developer'],
    call: (c) => c.post('/api/admin/send-manual-report'),
  },
  {
    route: 'POST /api/completed-shifts/manual-report',
    allowed: ['superAdmin', 'developer'],
    call: (c) => c.post('/api/completed-shifts/manual-report'),
  },
  {
    route: 'POST /api/completed-shifts/clear',
    allowed: ['developer'],
    call: (c) => c.post('/api/completed-shifts/clear'),
  },
  {
    route: 'POST /api/test-weekly-audit',
    allowed: ['developer'],
    call: (c) => c.post('/api/test-weekly-audit'),
  },
  { route: 'GET /api/parked-events', allowed: ['developer'], call: (c) => c.get('/api/parked-events') },
];

describe('docs/product.md §6 permissions on every write route', () => {
  for (const { route, allowed, call } of matrix) {
    it(route, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number | string> = {};
      for (const who of Object.keys(callers) as Who[]) {
        const reply = await call(callers[who]);
        got[who] = reply.status >= 200 && reply.status < 300 ? 200 : reply.status;
        want[who] = who === 'signedOut' ? 401 : allowed.includes(who) ? 200 : 403;
        if (got[who] >= 400) expect(reply.body.message, `${who}: a clear message`).toBeTruthy();
      }
      expect(got).toEqual(want);
    });
  }

  it('a caller who may not manage users learns nothing of which ids exist', async () => {
    const existing = await account('staff');
    const unknown = randomUUID();
    const attempts = (id: string) => [
      callers.staff.put(`/api/users/${id}`, editBody(`ed${randomUUID().slice(0, 8)}`)),
      callers.staff.delete(`/api/users/${id}`),
      callers.staff.put(`/api/users/${id}/password`, { newPassword: 'another1' }),
      callers.staff.post(`/api/users/${id}/assign-residence`, { residenceId: randomUUID() }),
    ];
    const forExisting = await Promise.all(attempts(existing));
    const forUnknown = await Promise.all(attempts(unknown));
    expect(forExisting.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect(forUnknown.map((r) => [r.status, r.body.message])).toEqual(
      forExisting.map((r) => [r.status, r.body.message]),
    );
  });

  it('nobody deletes or resets themselves', async () => {
    for (const who of ['admin', 'superAdmin', 'developer'] as const) {
      const self = callers[who];
      expect((await self.delete(`/api/users/${self.userId}`)).status, who).toBe(403);
      expect(
        (await self.put(`/api/users/${self.userId}/password`, { newPassword: 'another1' })).status,
        who,
      ).toBe(403);
    }
  });
});
