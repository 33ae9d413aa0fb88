import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../testing/http';

let server: TestServer;
let clients: Client[];
let realIds: string[];

const routes: Array<[string, string]> = [
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/change-password'],
  ['POST', '/api/shifts'],
  ['PUT', '/api/shifts/:id'],
  ['DELETE', '/api/shifts/:id'],
  ['POST', '/api/shifts/:id/claim'],
  ['POST', '/api/shifts/:id/approve'],
  ['POST', '/api/shifts/:id/deny'],
  ['POST', '/api/shifts/:id/request-drop'],
  ['POST', '/api/shifts/:id/assign'],
  ['POST', '/api/shifts/:id/transfer-request'],
  ['PATCH', '/api/transfer-requests/:id'],
  ['DELETE', '/api/transfer-requests/:id'],
  ['POST', '/api/admin/drop-requests/:id/approve'],
  ['POST', '/api/admin/drop-requests/:id/deny'],
  ['POST', '/api/residences'],
  ['PUT', '/api/residences/:id'],
  ['DELETE', '/api/residences/:id'],
  ['POST', '/api/users'],
  ['PUT', '/api/users/:id'],
  ['DELETE', '/api/users/:id'],
  ['PUT', '/api/users/:id/password'],
  ['POST', '/api/users/:id/assign-residence'],
  ['POST', '/api/system-config/email-notification-mode'],
  ['POST', '/api/notifications/read'],
  ['POST', '/api/test-email'],
  ['POST', '/api/email-diagnostic'],
  ['POST', '/api/test-reminders'],
  ['POST', '/api/bulk-test-emails'],
  ['POST', '/api/email-queue/clear'],
  ['POST', '/api/admin/resend-shift-notification/:id'],
  ['POST', '/api/admin/send-manual-report'],
  ['POST', '/api/completed-shifts/manual-report'],
  ['POST', '/api/completed-shifts/clear'],
  ['POST', '/api/test-weekly-audit'],
  ['POST', '/api/parked-messages/:id/replay'],
  ['GET', '/api/shifts'],
  ['GET', '/api/shifts/pending'],
  ['GET', '/api/shifts/in-progress'],
  ['GET', '/api/dashboard/stats'],
  ['GET', '/api/my-shifts'],
  ['GET', '/api/users/:id/shifts'],
  ['GET', '/api/transfer-requests'],
  ['GET', '/api/admin/drop-requests'],
  ['GET', '/api/residences'],
  ['GET', '/api/users'],
  ['GET', '/api/completed-shifts'],
  ['GET', '/api/audit-logs'],
  ['GET', '/api/notifications'],
  ['GET', '/api/system-config/email-notification-mode'],
  ['GET', '/api/email-queue/status'],
  ['GET', '/api/email-outbox'],
  ['GET', '/api/parked-messages'],
];

beforeAll(async () => {
  server = await startTestServer();
  const developer = await server.signedIn('developer');
  clients = [server.anonymous(), await server.signedIn('staff'), await server.signedIn('admin'), developer];
  const shift = await developer.post('/api/shifts', {
    location: 'Maple House',
    date: '2027-03-01',
    startTime: '08:00',
    endTime: '16:00',
    type: 'AM',
  });
  const residence = await developer.post('/api/residences', { name: 'Fuzz Lodge' });
  realIds = [shift.body.id as string, residence.body.id as string, developer.userId];
});
afterAll(() => server.close());

const id = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('0', '-1', '%00', '..%2F..%2Fetc', 'a'.repeat(300), '1e309', 'null'),
  fc.constant('__real__'),
);
const field = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    '2026-02-30',
    '25:61',
    'AM',
    'Overnight',
    'urgent',
    'staff',
    'admin',
    'developer',
    '2099-01-01',
    '08:00',
  ),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);
const fieldNames = [
  'username',
  'password',
  'confirmPassword',
  'email',
  'firstName',
  'lastName',
  'role',
  'superAdmin',
  'location',
  'date',
  'startTime',
  'endTime',
  'type',
  'status',
  'requirements',
  'notes',
  'staffId',
  'toUserId',
  'message',
  'name',
  'description',
  'residenceId',
  'newPassword',
  'currentPassword',
  'mode',
  'assignedUserId',
  'subject',
  'count',
  'recipients',
  '__proto__',
  'constructor',
];
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...fieldNames), field, { maxKeys: 8 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('{', 'not json', '[]', '""', '{"a":', '\u0000'),
  fc.constant(undefined),
);
const query = fc.dictionary(
  fc.constantFrom('location', 'status', 'type', 'x'),
  fc.string({ maxLength: 10 }),
  { maxKeys: 2 },
);

describe('random and malformed requests on every route', () => {
  it('never get a 5xx, and a rejected request writes no event', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(routes.length - 1),
        fc.nat(3),
        id,
        body,
        query,
        fc.nat(realIds.length - 1),
        async (r, c, rawId, payload, params, realIndex) => {
          const [method, template] = routes[r]!;
          const chosenId = rawId === '__real__' ? realIds[realIndex]! : encodeURIComponent(rawId) || 'x';
          const search = new URLSearchParams(params).toString();
          const path = template.replace(':id', chosenId) + (search ? `?${search}` : '');
          const before = await server.runtime.store.headPosition();
          const reply = await clients[c]!.call(method, path, method === 'GET' ? undefined : payload);
          expect(
            reply.status,
            `${method} ${path} ${JSON.stringify(payload)} → ${JSON.stringify(reply.body)}`,
          ).toBeLessThan(500);
          if (reply.status >= 400) {
            expect(typeof reply.body.message).toBe('string');
            expect(await server.runtime.store.headPosition()).toBe(before);
          }
        },
      ),
      { numRuns: 600 },
    );
  });
});
